// A test actor that exercises the host: state, traps, queries, timers, calls between actors,
// self-calls, debug output, runaway loops and stable memory.
import Timer "mo:core/Timer";
import Debug "mo:core/Debug";
import Principal "mo:core/Principal";
import Runtime "mo:core/Runtime";

persistent actor Self {
  var count : Nat = 0;
  var ticks : Nat = 0;
  var log : Text = "";

  public func inc() : async Nat { count += 1; count };

  public query func get() : async Nat { count };

  // Changes state, then traps: the change must not survive.
  public func incThenTrap() : async () {
    count += 1000;
    Runtime.trap("deliberate trap after changing state");
  };

  // A query that changes state: the change must not survive either.
  public query func incInQuery() : async Nat { count += 1; count };

  public func spin() : async () {
    var i = 0;
    while (true) { i += 1 };
  };

  // Long updates that change state first: queries meanwhile must not see the change.
  public func incThenLoop(rounds : Nat) : async Nat {
    count += 1;
    var i = 0;
    while (i < rounds) { i += 1 };
    count
  };

  public func incThenSpin() : async () {
    count += 1000;
    var i = 0;
    while (true) { i += 1 };
  };

  public func say(text : Text) : async () { Debug.print(text) };

  // Timers: one-shot and recurring, each tick a message of its own.
  public func tickOnce(seconds : Nat) : async () {
    ignore Timer.setTimer<system>(#seconds seconds, func() : async () { ticks += 1 });
  };

  transient var recurring : ?Timer.TimerId = null;

  public func tickEvery(milliseconds : Nat) : async () {
    recurring := ?Timer.recurringTimer<system>(#nanoseconds(milliseconds * 1_000_000), func() : async () { ticks += 1 });
  };

  public func stopTicking() : async () {
    switch (recurring) { case (?id) Timer.cancelTimer(id); case null {} };
  };

  public query func getTicks() : async Nat { ticks };

  // Calls between actors.
  type Peer = actor { inc : () -> async Nat; whoCalled : () -> async Principal };

  public func incPeer(peer : Principal) : async Nat {
    let other : Peer = actor (Principal.toText(peer));
    await other.inc();
  };

  public shared ({ caller }) func whoCalled() : async Principal { caller };

  public func askPeerWhoCalled(peer : Principal) : async Principal {
    let other : Peer = actor (Principal.toText(peer));
    await other.whoCalled();
  };

  // Calls a method the peer does not have: the reject comes back as an error, caught here.
  public func callMissing(peer : Principal) : async Text {
    let other : actor { missing : () -> async () } = actor (Principal.toText(peer));
    try { await other.missing(); "no error" } catch (e) { "rejected" };
  };

  // Changes state, awaits a peer, then traps in the callback: only the part before the await stays.
  public func incAwaitThenTrap(peer : Principal) : async () {
    count += 1;
    let other : Peer = actor (Principal.toText(peer));
    ignore await other.inc();
    count += 1000;
    Runtime.trap("trap in a callback");
  };

  public func selfInc() : async Nat { await inc() };

  public query func id() : async Principal { Principal.fromActor(Self) };

  public query func echo(text : Text, n : Nat, f : Float, flag : Bool, items : [Nat8], o : ?Text)
    : async { text : Text; n : Nat; f : Float; flag : Bool; items : [Nat8]; o : ?Text } {
    { text; n; f; flag; items; o }
  };
};
