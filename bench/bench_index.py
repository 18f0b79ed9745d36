"""The capability index's fit time, next to a floor measured in the same run.

For 60 agents x 500 tasks and 200 x 2000 (half the cells missing, 1..5 levels drawn from a 2PL), it times
`harness.analysis.irt.fit` (targets: at most 0.5 s and 5 s) and, as the floor, the same number of
evaluations of the negative log posterior and its gradient done as bare numpy, with no optimiser around
them: what any L-BFGS fit of this model must at least spend. Recovery (the correlation of true and
fitted ability) is printed beside, so a faster fit that fits worse shows.

  python bench/bench_index.py [--repeats 3]
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import numpy as np

from harness.analysis.irt import Observations, fit, standardise


def simulate(agents: int, tasks: int, seed: int) -> tuple[np.ndarray, Observations]:
    rng = np.random.default_rng(seed)
    theta = rng.normal(0, 1, agents)
    b = rng.normal(0, 1.5, tasks)
    a = np.exp(rng.normal(0, 0.4, tasks))
    keep = rng.random((agents, tasks)) >= 0.5
    j, i = np.nonzero(keep)
    p = 1 / (1 + np.exp(-a[i] * (theta[j] - b[i])))
    k = rng.binomial(4, p).astype(float)
    cells = [(f"a{x:04d}", f"t{y:05d}", float(kk), 4.0) for x, y, kk in zip(j, i, k, strict=True)]
    return theta, Observations.build(cells)


def floor_seconds(obs: Observations, evaluations: int, at: Any) -> float:
    """`evaluations` of the objective and gradient at the fitted values (real numbers: exp and log of
    zeros are faster than of the values a fit goes through)."""
    ai, ti, k, n = obs.agent, obs.task, obs.k, obs.n
    theta, b, alpha = at.theta, at.b, np.log(at.a)
    started = time.perf_counter()
    for _ in range(evaluations):
        a = np.exp(alpha[ti])
        z = a * (theta[ai] - b[ti])
        float(np.sum(n * np.logaddexp(0.0, z) - k * z))
        r = n / (1.0 + np.exp(-z)) - k
        np.bincount(ai, r * a, len(obs.agents))
        np.bincount(ti, -r * a, len(obs.tasks))
        np.bincount(ti, r * z, len(obs.tasks))
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    fit(simulate(5, 20, 0)[1])  # import scipy once, outside the timings
    for agents, tasks, target in ((60, 500, 0.5), (200, 2000, 5.0)):
        theta, obs = simulate(agents, tasks, seed=agents)
        times, result = [], None
        for _ in range(args.repeats):
            started = time.perf_counter()
            result = fit(obs)
            times.append(time.perf_counter() - started)
        assert result is not None
        evaluations = result.evaluations  # as many as the optimiser made
        floor = statistics.median(floor_seconds(obs, evaluations, result) for _ in range(args.repeats))
        scaled, _, _ = standardise(result)
        order = [int(name[1:]) for name in scaled.agents]
        r = float(np.corrcoef(theta[order], scaled.theta)[0, 1])
        median = statistics.median(times)
        print(
            f"{agents:>4} x {tasks:<5} {len(obs.k):>7,} cells  fit {median:6.3f} s (target <= {target:g} s)  "
            f"floor {floor:6.3f} s ({evaluations} evaluations)  ratio {median / floor:4.1f}x  "
            f"r(theta) {r:.4f}  iterations {result.iterations}"
        )


if __name__ == "__main__":
    main()
