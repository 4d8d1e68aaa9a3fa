// Version 2: a task has a priority, and `done` became the time it was finished. The migration function
// runs once, at the upgrade from version 1: it reads the old `tasks` and returns the new one.
import List "mo:core/List";
import Time "mo:core/Time";

(
  with migration = func(old : { tasks : List.List<{ text : Text; done : Bool }> }) : {
    tasks : List.List<{ text : Text; priority : Nat; finished : ?Int }>;
  } {
    let now = Time.now();
    {
      tasks = List.map<{ text : Text; done : Bool }, { text : Text; priority : Nat; finished : ?Int }>(
        old.tasks,
        func t = { text = t.text; priority = 1; finished = if (t.done) ?now else null },
      );
    };
  }
)
persistent actor {
  type Task = { text : Text; priority : Nat; finished : ?Int };

  let tasks = List.empty<Task>();

  public func add(text : Text, priority : Nat) : async Nat {
    List.add(tasks, { text; priority; finished = null });
    List.size(tasks)
  };

  public func finish(index : Nat) : async () {
    let task = List.at(tasks, index);
    List.put(tasks, index, { task with finished = ?Time.now() });
  };

  public query func show() : async [Text] {
    List.toArray(
      List.map<Task, Text>(
        tasks,
        func t = (if (t.finished != null) "[x] " else "[ ] ") # t.text # " (priority " # debug_show t.priority # ")",
      )
    )
  };
};
