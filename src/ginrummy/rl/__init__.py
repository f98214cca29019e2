"""The research toolkit: adapters from the engine to the libraries reinforcement-learning
research uses (OpenSpiel, Ray), and self-play data.

Each submodule imports its optional library itself, so ``import ginrummy.rl`` needs nothing
beyond the engine: :mod:`.openspiel` (numpy) holds OpenSpiel's observation tensor and action
ids, :mod:`.openspiel_game` (pyspiel) registers the ``python_ginrummy`` game,
:mod:`.ray_arena` (ray) runs the arena on Ray and :mod:`.selfplay` writes trajectories.
"""
