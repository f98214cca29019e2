"""Random agents in each of the environments' APIs: PettingZoo's AEC loop, PettingZoo's parallel
loop, Gymnasium against a computer player, and batched self-play. Every action is drawn from
the action mask, and ``--seed`` seeds the deals and the draws, so the same command plays the
same episodes. docs/rl.md describes the options, rewards and observations.

    python examples/env_random.py --episodes 3 --rules oklahoma --mode game
    python examples/env_random.py --encoding infostate --opponent simple
"""

from __future__ import annotations

import argparse

import gymnasium
import numpy as np

import ginrummy.rl  # noqa: F401  (registers ginrummy/GinRummy-v0)
from ginrummy.rl import VectorEnv, ginrummy_v0


def aec_loop(options: dict[str, object], episodes: int, seed: int) -> None:
    """PettingZoo's agent-by-agent loop."""
    env = ginrummy_v0.env(**options)
    for seat, agent in enumerate(env.possible_agents):  # the random agents' own draws
        env.action_space(agent).seed(seed * 2 + seat)
    for episode in range(episodes):
        env.reset(seed=seed + episode)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        steps = 0
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, _ = env.last()
            totals[agent] += reward
            if terminated or truncated:
                action = None
            else:
                action = env.action_space(agent).sample(observation["action_mask"])
                steps += 1
            env.step(action)
        print(f"AEC episode {episode + 1}: {steps} actions, rewards {totals}")
    env.close()


def parallel_loop(options: dict[str, object], episodes: int, seed: int) -> None:
    """PettingZoo's parallel loop: only the agent to act has legal actions."""
    env = ginrummy_v0.parallel_env(**options)
    for seat, agent in enumerate(env.possible_agents):
        env.action_space(agent).seed(seed * 2 + seat)
    for episode in range(episodes):
        observations, _ = env.reset(seed=seed + episode)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        steps = 0
        while env.agents:
            actions = {
                agent: env.action_space(agent).sample(observations[agent]["action_mask"])
                for agent in env.agents
            }
            observations, rewards, *_ = env.step(actions)
            for agent, reward in rewards.items():
                totals[agent] += reward
            steps += 1
        print(f"parallel episode {episode + 1}: {steps} steps, rewards {totals}")
    env.close()


def gymnasium_loop(options: dict[str, object], episodes: int, seed: int, opponent: str) -> None:
    """Gymnasium: one seat against a computer player."""
    env = gymnasium.make("ginrummy/GinRummy-v0", opponent=opponent, **options)
    env.action_space.seed(seed)
    for episode in range(episodes):
        observation, _ = env.reset(seed=seed + episode)
        total, steps, done = 0.0, 0, False
        while not done:
            action = env.action_space.sample(observation["action_mask"])
            observation, reward, terminated, truncated, _ = env.step(action)
            total += float(reward)
            steps += 1
            done = terminated or truncated
        print(
            f"Gymnasium episode {episode + 1} against {opponent} (seat {env.unwrapped.seat}): "
            f"{steps} steps, reward {total:g}"
        )
    env.close()


def batched_loop(options: dict[str, object], rows: int, steps: int, seed: int) -> None:
    """Batched self-play: one random legal action per row, every row at once."""
    venv = VectorEnv(rows, **options)
    batch = venv.reset(seed=seed)
    rng = np.random.default_rng(seed)
    ended, totals = 0, np.zeros(2)
    for _ in range(steps):
        actions = [rng.choice(np.flatnonzero(mask)) for mask in batch.action_mask]
        batch = venv.step(actions)
        ended += int((batch.terminated | batch.truncated).sum())
        totals += batch.reward.sum(axis=0)
    print(
        f"VectorEnv({rows}): {steps} steps, observations {batch.observation.shape[1:]}, "
        f"{ended} episodes ended, rewards by seat {totals.tolist()}"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=2)
    parser.add_argument("--rules", default="standard", help="rules preset")
    parser.add_argument("--mode", default="hand", choices=["hand", "game", "match"])
    parser.add_argument("--encoding", default="default")
    parser.add_argument("--opponent", default="random", help="the Gymnasium opponent")
    parser.add_argument("--rows", type=int, default=8, help="episodes in VectorEnv")
    parser.add_argument("--steps", type=int, default=200, help="VectorEnv steps")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    options: dict[str, object] = {
        "preset": args.rules,
        "mode": args.mode,
        "encoding": args.encoding,
    }
    aec_loop(options, args.episodes, args.seed)
    parallel_loop(options, args.episodes, args.seed)
    gymnasium_loop(options, args.episodes, args.seed, args.opponent)
    batched_loop(options, args.rows, args.steps, args.seed)


if __name__ == "__main__":
    main()
