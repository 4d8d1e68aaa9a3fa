// Moves weights between machines, for tests/test_device_export.py and bench/export_fetch.py: makes
// parameters, publishes and exports them, fetches another device's export into its own publications,
// and mixes those into its parameters.
import Array "mo:core/Array";
import Principal "mo:core/Principal";

persistent actor Self {
  type Op = {
    #param : Text;
    #shared_ : { owner : Principal; name : Text };
  };
  type Device = actor {
    moxzi_device_params : ([{ name : Text; shape : [Nat32]; init : { #normal : Float } }]) -> async ();
    moxzi_device_publish : ({ names : [Text]; prefix : Text; readers : ?{ #anyone } }) -> async ();
    moxzi_device_export : ({ names : [Text]; prefix : Text; uses : ?Nat; seconds : ?Nat }) -> async Text;
    moxzi_device_fetch : ({ url : Text; prefix : Text }) -> async ();
    moxzi_device_mix : ([{ into : Text; terms : [{ owner : ?Principal; name : Text; weight : Float }] }]) -> async ();
    moxzi_device_run : ({
      inputs : [{ data : Blob; elem : { #u8 }; shape : [Nat32] }];
      program : [Op];
      scalars : [Nat32];
      tensors : [Nat32];
    }) -> async { tensors : [Blob] };
  };
  transient let device : Device = actor "aaaaa-aa";

  // Parameters `names[i]` of shape `shapes[i]`, drawn from N(0, 1).
  public func make(names : [Text], shapes : [[Nat32]]) : async () {
    await device.moxzi_device_params(names.mapEntries(func(name : Text, i : Nat) : { name : Text; shape : [Nat32]; init : { #normal : Float } } = { name; shape = shapes[i]; init = #normal 1.0 }));
  };

  public func share(names : [Text], prefix : Text) : async () {
    await device.moxzi_device_publish({ names; prefix; readers = null });
  };

  public func export(names : [Text], prefix : Text, uses : ?Nat, seconds : ?Nat) : async Text {
    await device.moxzi_device_export({ names; prefix; uses; seconds })
  };

  public func fetch(url : Text, prefix : Text) : async () {
    await device.moxzi_device_fetch({ url; prefix });
  };

  // Set each parameter to the mean of itself and the publication prefix # name (a fetched one).
  public func average(names : [Text], prefix : Text) : async () {
    let me = Principal.fromActor(Self);
    await device.moxzi_device_mix(names.map(func(name : Text) : { into : Text; terms : [{ owner : ?Principal; name : Text; weight : Float }] } = {
      into = name;
      terms = [{ owner = null; name; weight = 0.5 }, { owner = ?me; name = prefix # name; weight = 0.5 }];
    }));
  };

  // The float32 bytes of a parameter, or of its own publication with `published`.
  public func values(name : Text, published : Bool) : async Blob {
    let source = if published #shared_ { owner = Principal.fromActor(Self); name } else #param name;
    (await device.moxzi_device_run({ inputs = []; program = [source]; scalars = []; tensors = [0] })).tensors[0]
  };
};
