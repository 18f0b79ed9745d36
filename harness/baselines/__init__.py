"""Two agents that bound what the xbench tables can show, run like any other agent (`--agent`):

- `harness.baselines.keyword:run`, the floor: BM25 keyword search over the task's world, no model. A
  benchmark whose tasks it solves cannot tell a good agent from a mediocre one.
- `harness.baselines.oracle:run`, the ceiling: it reads the task's ground truth and writes the answer an
  expert would. It validates the judges and the plumbing: a judge that does not give it full marks is wrong.

Their scores per column are in docs/xbench.md; tests hold the floor well below the ceiling.
"""
