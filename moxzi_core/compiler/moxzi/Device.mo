// mo:moxzi/Device: the types of moxzi's tensor device (the management canister aaaaa-aa, methods
// moxzi_device_*). GENERATED from moxzi_core/device/interface.did by
// `python3 -m moxzi_core.device.motoko`: edit the interface, not this file. What each field means,
// and each op's shapes, is written there and in docs/device.md.

module {
  public type Elem = { #f32; #i32; #i64; #u8 };
  public type Input = { data : Blob; elem : Elem; shape : [Nat32] };
  public type Init = {
    #normal : Float;
    #ones;
    #uniform : { high : Float; low : Float };
    #values : Blob;
    #zeros;
  };
  public type Reg = Nat32;
  public type Op = {
    #add : { a : Reg; b : Reg };
    #attention : { causal : ?Bool; k : Reg; q : Reg; v : Reg };
    #causal_attention : { k : Reg; q : Reg; v : Reg };
    #concat : { dim : Nat32; xs : [Reg] };
    #cross_entropy : { logits : Reg; targets : Reg };
    #embedding : { ids : Reg; table : Reg };
    #gelu : Reg;
    #input : Nat32;
    #layer_norm : Reg;
    #linear : { b : ?Reg; w : Reg; x : Reg };
    #load : Text;
    #matmul : { a : Reg; b : Reg };
    #mean : { dim : ?Nat32; x : Reg };
    #mul : { a : Reg; b : Reg };
    #narrow : { dim : Nat32; len : Nat32; start : Nat32; x : Reg };
    #param : Text;
    #relu : Reg;
    #reshape : { shape : [Nat32]; x : Reg };
    #rms_norm : Reg;
    #rope : Reg;
    #rope_from : { start : Nat32; x : Reg };
    #scale : { by : Float; x : Reg };
    #shared_ : { name : Text; owner : Principal };
    #silu : Reg;
    #softmax : Reg;
    #store : { name : Text; x : Reg };
    #sum : { dim : ?Nat32; x : Reg };
    #transpose : { a : Nat32; b : Nat32; x : Reg };
  };
  public type Train = { also : ?[Text]; clip : ?Float; loss : Reg; lr : ?Float; optimizer : Text };
  public type Run = {
    inputs : [Input];
    program : [Op];
    scalars : [Reg];
    split : ?[Nat32];
    tensors : [Reg];
    train : ?Train;
  };
  public type RunResult = { scalars : [Float]; shapes : [[Nat32]]; tensors : [Blob] };
  public type Param = { init : Init; name : Text; shape : [Nat32] };
  public type Optimizer = {
    beta1 : Float;
    beta2 : Float;
    eps : Float;
    kind : ?{ #adamw; #sgd };
    lr : Float;
    name : Text;
    params : [Text];
    weight_decay : Float;
  };
  public type Readers = { #anyone; #principals : [Principal] };
  public type Publish = { names : [Text]; prefix : Text; readers : ?Readers };
  public type Term = { name : Text; owner : ?Principal; weight : Float };
  public type Mix = { into : Text; terms : [Term] };
  public type Export = { names : [Text]; prefix : Text; seconds : ?Nat; uses : ?Nat };
  public type Fetch = { prefix : Text; url : Text };
  public type Kind = { #optimizer; #param; #publication; #stored };
  public type Entry = { kind : Kind; name : Text; readers : ?Readers; shape : [Nat32] };

  public type Device = actor {
    moxzi_device_delete : ([{ kind : Kind; name : Text }]) -> async ();
    moxzi_device_export : (Export) -> async Text;
    moxzi_device_fetch : (Fetch) -> async ();
    moxzi_device_list : () -> async [Entry];
    moxzi_device_mix : ([Mix]) -> async ();
    moxzi_device_optimizer : (Optimizer) -> async ();
    moxzi_device_params : ([Param]) -> async ();
    moxzi_device_publish : (Publish) -> async ();
    moxzi_device_run : (Run) -> async RunResult;
  };

  /// The device: `transient let device = Device.device();` in an actor.
  public func device() : Device = actor "aaaaa-aa";
};
