"""Adapters that drive the sans-IO core over real transports."""
