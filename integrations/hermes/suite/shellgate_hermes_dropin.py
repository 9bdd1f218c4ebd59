"""pytest plugin: with SHELLGATE_HERMES_DROPIN=1, Hermes's own detection functions are
replaced by shellgate's drop-in before any test module imports them, so Hermes's tests
(and Hermes's gate, which calls them) exercise shellgate."""

import os


def pytest_configure(config):
    if os.environ.get("SHELLGATE_HERMES_DROPIN") == "1":
        import tools.approval

        from shellgate import hermes

        hermes.patch(tools.approval)
        config.stash_dropin = True
