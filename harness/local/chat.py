class LocalModelUnavailable(RuntimeError):
    pass
