"""The HTTP side: request descriptions, status errors, retry and resume policies, the exchange."""
