"""`harness solve`: a person, or any agent, solves one task by hand through the tools every agent gets.

The run is an ordinary pytest run whose system under test is `harness.solve.agent:run`: the harness renders
the prompt, hands over the task's tools and call budget, and scores the answer as it scores any agent's. The
agent serves those tools on a Unix socket in a session folder (harness.solve.protocol); the front end
(harness.solve.frontend) is a terminal prompt, or one command per call for agents that drive it step by step.
Every call is logged with its time in the session folder, with the minutes the solve took.
"""
