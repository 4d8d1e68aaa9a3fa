"""moxzi: a host for Motoko actors with a tensor device.

The core holds the hook specs, the plugin manager, the actor runtime, Candid and the build command;
everything that talks to the outside world or to a backend lives in a plugin.
"""

__version__ = "0.1.0"
