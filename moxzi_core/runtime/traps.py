"""How an actor's message ends when the actor traps: raised by the ``ic0`` functions (`ic0`) and
the stable memory's (`engine.stable`), caught where the instance runs the message (`engine.instance`)."""


class ActorTrap(Exception):
    """The actor trapped: the message's effects are discarded and its caller gets this text."""
