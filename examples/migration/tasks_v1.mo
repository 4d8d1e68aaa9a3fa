// A to-do list, version 1: each task is its text, done or not.
import List "mo:core/List";

persistent actor {
  type Task = { text : Text; done : Bool };

  let tasks = List.empty<Task>();

  public func add(text : Text) : async Nat {
    List.add(tasks, { text; done = false });
    List.size(tasks)
  };

  public func finish(index : Nat) : async () {
    let task = List.at(tasks, index);
    List.put(tasks, index, { task with done = true });
  };

  public query func show() : async [Text] {
    List.toArray(List.map<Task, Text>(tasks, func t = (if (t.done) "[x] " else "[ ] ") # t.text))
  };
};
