"""Item response theory for the capability index: a regularised 2PL (or 1PL) fit on an incomplete
(agent-version x task) matrix, as pure functions over arrays.

    p(agent j solves task i) = sigmoid(a_i (theta_j - b_i)),   a_i = exp(alpha_i)

Each observed cell contributes a binomial likelihood with `n` trials and `k` successes: a judge level
1..5 is k = level - 1 of n = 4 (so 1 and 5 are exact 0 and 100 %), a fraction y in [0, 1] is k = y n with a
pseudo-count n (an aggregate benchmark score is one noisy number, not thousands of independent answers).
Repeats add their trials. The fit is the joint MAP with priors theta ~ N(0, 1), alpha ~ N(0, 0.5^2),
b ~ N(mu, 2^2) (mu = 0, or a task's calibrated difficulty, `difficulty_prior`), by L-BFGS-B with the
analytic gradient (numpy bincount over the observed cells only).

The scale is fixed afterwards: standardised over a reference set of agents (mean 0, sd 1), or left as it
is when anchors (parameters held at given values) fix it. Frozen anchors make a refit with new agents and
tasks leave every anchored value where it was published.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

THETA_SD, ALPHA_SD, B_SD = 1.0, 0.5, 2.0
Z95 = 1.959964


class IrtError(ValueError):
    """A matrix the index cannot be fitted on; the message says why and what to do."""


@dataclass(frozen=True)
class Observations:
    """The observed cells: agent and task indices, successes and trials (floats: fractions allowed)."""

    agent: np.ndarray
    task: np.ndarray
    k: np.ndarray
    n: np.ndarray
    agents: tuple[str, ...]
    tasks: tuple[str, ...]

    @classmethod
    def build(cls, cells: list[tuple[str, str, float, float]]) -> Observations:
        """From (agent, task, k, n) rows; rows for the same cell are pooled (their trials add up)."""
        agents = tuple(sorted({c[0] for c in cells}))
        tasks = tuple(sorted({c[1] for c in cells}))
        agent_at = {a: i for i, a in enumerate(agents)}
        task_at = {t: i for i, t in enumerate(tasks)}
        pooled: dict[tuple[int, int], list[float]] = {}
        for agent, task, k, n in cells:
            if not (n > 0 and 0 <= k <= n and math.isfinite(k) and math.isfinite(n)):
                raise IrtError(f"cell ({agent}, {task}): need 0 <= k <= n and n > 0, got k={k}, n={n}")
            slot = pooled.setdefault((agent_at[agent], task_at[task]), [0.0, 0.0])
            slot[0] += k
            slot[1] += n
        keys = sorted(pooled)
        return cls(
            agent=np.array([a for a, _ in keys], dtype=np.int64),
            task=np.array([t for _, t in keys], dtype=np.int64),
            k=np.array([pooled[c][0] for c in keys], dtype=float),
            n=np.array([pooled[c][1] for c in keys], dtype=float),
            agents=agents,
            tasks=tasks,
        )

    def subset(self, rows: np.ndarray) -> Observations:
        return Observations(self.agent[rows], self.task[rows], self.k[rows], self.n[rows], self.agents, self.tasks)


@dataclass
class Anchors:
    """Parameters held at given values: agents' theta, tasks' (a, b)."""

    theta: dict[str, float] = field(default_factory=dict)
    tasks: dict[str, tuple[float, float]] = field(default_factory=dict)  # task -> (a, b)

    def __bool__(self) -> bool:
        return bool(self.theta or self.tasks)


@dataclass
class Fit:
    model: str  # "2pl" or "1pl"
    theta: np.ndarray
    a: np.ndarray
    b: np.ndarray
    se: np.ndarray  # Fisher standard error of theta (nan for anchored agents: they are held)
    agents: tuple[str, ...]
    tasks: tuple[str, ...]
    iterations: int
    converged: bool
    log_posterior: float
    notes: list[str] = field(default_factory=list)
    evaluations: int = 0  # of the objective and its gradient


def components(obs: Observations) -> list[tuple[list[str], list[str]]]:
    """The connected parts of the bipartite agent-task graph, largest first: (agents, tasks) each."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    n_a, n_t = len(obs.agents), len(obs.tasks)
    graph = coo_matrix((np.ones(len(obs.agent)), (obs.agent, n_a + obs.task)), shape=(n_a + n_t, n_a + n_t))
    count, labels = connected_components(graph, directed=False)
    parts = []
    for label in range(count):
        members = np.flatnonzero(labels == label)
        agents = [obs.agents[i] for i in members if i < n_a]
        tasks = [obs.tasks[i - n_a] for i in members if i >= n_a]
        parts.append((agents, tasks))
    return sorted(parts, key=lambda p: (-len(p[0]) - len(p[1]), p[0][:1]))


def check_connected(obs: Observations) -> None:
    parts = [p for p in components(obs) if p[0]]
    if len(parts) <= 1:
        return
    shown = "; ".join(
        f"part {i + 1}: {len(agents)} agent(s) ({', '.join(agents[:3])}{', ...' if len(agents) > 3 else ''}) "
        f"on {len(tasks)} task(s)"
        for i, (agents, tasks) in enumerate(parts[:4])
    )
    raise IrtError(
        f"the agent-task matrix falls apart into {len(parts)} parts that share no task, so their scales cannot "
        f"be compared: {shown}. Run some agents of one part on tasks of another (or fit each part alone)."
    )


def _unpack(x: np.ndarray, fixed: dict[str, tuple[np.ndarray, np.ndarray]]) -> Any:
    """Full parameter vectors from the free ones, with anchored values put back."""
    out = []
    start = 0
    for name in ("theta", "b", "alpha"):
        mask, values = fixed[name]
        full = values.copy()
        free = int((~mask).sum())
        full[~mask] = x[start : start + free]
        start += free
        out.append(full)
    return out


def fit(
    obs: Observations,
    *,
    model: str = "2pl",
    anchors: Anchors | None = None,
    start: Fit | None = None,
    max_iterations: int = 2000,
    b_prior: dict[str, float] | None = None,
) -> Fit:
    """The MAP fit. `model` is "2pl" or "1pl" (all a = 1); `start` warm-starts (bootstrap refits);
    `b_prior` centres some tasks' difficulty prior on a measured value instead of 0 (`difficulty_prior`)."""
    from scipy.optimize import minimize

    if model not in ("1pl", "2pl"):
        raise ValueError(f"model must be 1pl or 2pl, got {model!r}")
    anchors = anchors or Anchors()
    n_a, n_t = len(obs.agents), len(obs.tasks)
    two = model == "2pl"
    theta_mask = np.array([a in anchors.theta for a in obs.agents])
    theta_fixed = np.array([anchors.theta.get(a, 0.0) for a in obs.agents], dtype=float)
    task_mask = np.array([t in anchors.tasks for t in obs.tasks])
    b_fixed = np.array([anchors.tasks.get(t, (1.0, 0.0))[1] for t in obs.tasks], dtype=float)
    alpha_fixed = np.array([math.log(max(anchors.tasks.get(t, (1.0, 0.0))[0], 1e-6)) for t in obs.tasks])
    n_alpha = n_t if two else 0
    fixed = {
        "theta": (theta_mask, theta_fixed),
        "b": (task_mask, b_fixed),
        "alpha": (task_mask[:n_alpha] if two else np.zeros(0, bool), alpha_fixed[:n_alpha] if two else np.zeros(0)),
    }
    ai, ti, k, n = obs.agent, obs.task, obs.k, obs.n
    mu = np.array([(b_prior or {}).get(t, 0.0) for t in obs.tasks], dtype=float)

    def objective(x: np.ndarray) -> tuple[float, np.ndarray]:
        theta, b, alpha = _unpack(x, fixed)
        a = np.exp(alpha[ti]) if two else np.ones(len(ti))
        z = a * (theta[ai] - b[ti])
        # n log(1 + e^z) - k z, computed stably
        nll = float(np.sum(n * np.logaddexp(0.0, z) - k * z))
        prior = 0.5 * float(theta @ theta) / THETA_SD**2 + 0.5 * float((b - mu) @ (b - mu)) / B_SD**2
        r = n / (1.0 + np.exp(-z)) - k  # d nll / dz
        g_theta = np.bincount(ai, r * a, n_a) + theta / THETA_SD**2
        g_b = np.bincount(ti, -r * a, n_t) + (b - mu) / B_SD**2
        grads = [g_theta[~fixed["theta"][0]], g_b[~fixed["b"][0]]]
        if two:
            prior += 0.5 * float(alpha @ alpha) / ALPHA_SD**2
            g_alpha = np.bincount(ti, r * z, n_t) + alpha / ALPHA_SD**2
            grads.append(g_alpha[~fixed["alpha"][0]])
        return nll + prior, np.concatenate(grads)

    if start is not None and start.agents == obs.agents and start.tasks == obs.tasks:
        x0_parts = [start.theta, start.b, np.log(start.a) if two else np.zeros(0)]
    else:
        x0_parts = [_start_theta(obs), _start_b(obs), np.zeros(n_alpha)]
    x0 = np.concatenate(
        [
            part[~mask]
            for part, mask in zip(x0_parts, (fixed["theta"][0], fixed["b"][0], fixed["alpha"][0]), strict=True)
        ]
    )
    result = minimize(objective, x0, jac=True, method="L-BFGS-B", options={"maxiter": max_iterations, "gtol": 1e-6})
    theta, b, alpha = _unpack(result.x, fixed)
    a = np.exp(alpha) if two else np.ones(n_t)
    se = fisher_se(obs, theta, a, b)
    se[theta_mask] = np.nan
    return Fit(
        model=model,
        theta=theta,
        a=a,
        b=b,
        se=se,
        agents=obs.agents,
        tasks=obs.tasks,
        iterations=int(result.nit),
        converged=bool(result.success),
        log_posterior=-float(result.fun),
        evaluations=int(result.nfev),
    )


def difficulty_prior(score: float) -> float:
    """The difficulty a task's calibration suggests: the b at which an agent at the scale's centre (theta 0)
    would score what the blind solves scored (0..100), kept within +-4. Pure."""
    rate = min(max(score / 100.0, 0.02), 0.98)
    return max(-4.0, min(4.0, -math.log(rate / (1.0 - rate))))


def _start_theta(obs: Observations) -> np.ndarray:
    """Logit of each agent's pooled success rate, centred: a start the optimiser refines quickly."""
    rate = (np.bincount(obs.agent, obs.k, len(obs.agents)) + 0.5) / (np.bincount(obs.agent, obs.n, len(obs.agents)) + 1)
    logit = np.log(rate / (1 - rate))
    return logit - logit.mean()


def _start_b(obs: Observations) -> np.ndarray:
    rate = (np.bincount(obs.task, obs.k, len(obs.tasks)) + 0.5) / (np.bincount(obs.task, obs.n, len(obs.tasks)) + 1)
    return -np.log(rate / (1 - rate))


def fisher_se(obs: Observations, theta: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Standard error of each theta from its Fisher information (task parameters taken as known)."""
    z = a[obs.task] * (theta[obs.agent] - b[obs.task])
    p = 1.0 / (1.0 + np.exp(-z))
    information = np.bincount(obs.agent, obs.n * a[obs.task] ** 2 * p * (1 - p), len(obs.agents))
    return 1.0 / np.sqrt(information + 1.0 / THETA_SD**2)


def standardise(result: Fit, reference: list[str] | None = None) -> tuple[Fit, float, float]:
    """The fit on a scale where the reference agents (default: all) have mean 0 and sd 1; probabilities
    are unchanged (theta' = (theta - m) / s, b' = (b - m) / s, a' = a s). Returns (fit, m, s)."""
    names = reference or list(result.agents)
    missing = [n for n in names if n not in result.agents]
    if missing:
        raise IrtError(f"reference agent(s) not in the matrix: {', '.join(missing)}")
    rows = [result.agents.index(n) for n in names]
    m = float(np.mean(result.theta[rows]))
    s = float(np.std(result.theta[rows])) if len(rows) > 1 else 1.0
    if not s > 1e-9:
        s = 1.0
    moved = Fit(
        model=result.model,
        theta=(result.theta - m) / s,
        a=result.a * s,
        b=(result.b - m) / s,
        se=result.se / s,
        agents=result.agents,
        tasks=result.tasks,
        iterations=result.iterations,
        converged=result.converged,
        log_posterior=result.log_posterior,
        notes=list(result.notes),
        evaluations=result.evaluations,
    )
    return moved, m, s


def held_out_log_likelihood(obs: Observations, model: str, folds: int = 5, seed: int = 0) -> float:
    """Mean log-likelihood per trial of cells left out of the fit (k-fold over observed cells)."""
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(obs.k))
    total, trials = 0.0, 0.0
    for fold in range(folds):
        test = order[fold::folds]
        train = np.setdiff1d(order, test)
        fitted = fit(obs.subset(train), model=model)
        z = fitted.a[obs.task[test]] * (fitted.theta[obs.agent[test]] - fitted.b[obs.task[test]])
        total += float(np.sum(obs.k[test] * z - obs.n[test] * np.logaddexp(0.0, z)))
        trials += float(np.sum(obs.n[test]))
    return total / trials


AUTO_2PL_AGENTS = 50
MIN_2PL_AGENTS = 10


def choose_model(obs: Observations) -> tuple[str, str]:
    """("1pl" or "2pl", why). With fewer than 50 agent versions, discrimination is poorly identified:
    the model with the better held-out likelihood is taken."""
    if len(obs.agents) >= AUTO_2PL_AGENTS:
        return "2pl", f"2PL: {len(obs.agents)} agent versions identify discrimination"
    if len(obs.agents) < MIN_2PL_AGENTS or len(obs.k) < 20:
        return "1pl", (
            f"1PL: {len(obs.agents)} agent versions and {len(obs.k)} observed cells are too few to fit a "
            "discrimination per task"
        )
    one = held_out_log_likelihood(obs, "1pl")
    two = held_out_log_likelihood(obs, "2pl")
    if two > one:
        return "2pl", f"2PL: better held-out likelihood than 1PL ({two:.4f} vs {one:.4f} per trial)"
    return "1pl", (
        f"1PL: only {len(obs.agents)} agent versions (under {AUTO_2PL_AGENTS}); its held-out likelihood "
        f"{one:.4f} per trial is at least 2PL's {two:.4f}"
    )


def bootstrap(
    obs: Observations,
    base: Fit,
    *,
    resamples: int = 200,
    seed: int = 0,
    anchors: Anchors | None = None,
    reference: list[str] | None = None,
    b_prior: dict[str, float] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Percentile 95 % intervals of theta from refits on tasks resampled with replacement (each refit put
    on the same scale as `base`). Returns (low, high) per agent; nan where an agent lost all its tasks."""
    rng = np.random.default_rng(seed)
    by_task = [np.flatnonzero(obs.task == t) for t in range(len(obs.tasks))]
    draws = np.full((resamples, len(obs.agents)), np.nan)
    for r in range(resamples):
        picks = rng.integers(0, len(obs.tasks), len(obs.tasks))
        rows = np.concatenate([by_task[t] for t in picks])
        cells = [
            (obs.agents[obs.agent[i]], f"{obs.tasks[obs.task[i]]}#{j}", obs.k[i], obs.n[i])
            for j, t in enumerate(picks)
            for i in by_task[t]
        ]
        if not len(rows):
            continue
        again = Observations.build(cells)
        priors = {t: b_prior[t.split("#", 1)[0]] for t in again.tasks if t.split("#", 1)[0] in (b_prior or {})}
        refit = fit(again, model=base.model, anchors=_renamed(anchors, again), b_prior=priors)
        if not anchors:
            refit, _, _ = standardise(refit, [a for a in (reference or again.agents) if a in again.agents])
        for j, name in enumerate(again.agents):
            draws[r, obs.agents.index(name)] = refit.theta[j]
    with np.errstate(all="ignore"):
        low = np.nanpercentile(draws, 2.5, axis=0)
        high = np.nanpercentile(draws, 97.5, axis=0)
    return low, high


def _renamed(anchors: Anchors | None, obs: Observations) -> Anchors | None:
    """Anchors for a bootstrap matrix, whose task names carry a draw suffix (task#j)."""
    if not anchors:
        return anchors
    tasks = {t: anchors.tasks[t.split("#", 1)[0]] for t in obs.tasks if t.split("#", 1)[0] in anchors.tasks}
    return Anchors(theta=dict(anchors.theta), tasks=tasks)


def interval(theta: float, se: float) -> tuple[float, float]:
    return theta - Z95 * se, theta + Z95 * se
