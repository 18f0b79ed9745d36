"""Two agents that bound what the xbench tables can show, run like any other agent (`--agent`):

- `harness.baselines.keyword:run`, the floor: BM25 keyword search over the task's world, no model. A
  benchmark whose tasks it solves cannot tell a good agent from a mediocre one. Its other strategies (the top
  1, 3 or 5 candidates, the task's words or its key terms) are agents too, and `harness.baselines.floor`
  scores all of them in-process with the reference judge.
- `harness.baselines.oracle:run`, the ceiling: it reads the task's ground truth and writes the answer an
  expert would. It validates the judges and the plumbing: a judge that does not give it full marks is wrong.

Their scores per column are in docs/xbench.md; tests hold the floor well below the ceiling.
"""
