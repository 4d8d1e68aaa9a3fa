// mo:moxzi/Program: a device program written as calls. Each method appends one op and returns its
// register (the op's position), so a model reads like its PyTorch:
//
//   let p = Program.Program();
//   let logits = p.linear(p.rmsNorm(x), p.param("head"));
//   ... program = p.ops() ...
//
// Sizes, dims and positions are Nat (converted to the device's Nat32); registers are Device.Reg.
import Array "mo:core/Array";
import List "mo:core/List";
import Nat32 "mo:core/Nat32";
import Device "Device";

module {
  public type Reg = Device.Reg;

  func n32(n : Nat) : Nat32 = Nat32.fromNat(n);
  func dim(d : ?Nat) : ?Nat32 = switch d { case (?d) ?n32(d); case null null };

  public class Program() {
    let program = List.empty<Device.Op>();

    /// Append `op`; its register.
    public func op(o : Device.Op) : Reg {
      program.add(o);
      n32(program.size()) - 1
    };

    /// The ops so far, for a run's `program`.
    public func ops() : [Device.Op] = program.toArray();

    // --- sources ---
    public func input(n : Nat) : Reg = op(#input(n32 n));
    public func param(name : Text) : Reg = op(#param name);
    /// A publication of `owner` this actor may read.
    public func shared_(owner : Principal, name : Text) : Reg = op(#shared_ { owner; name });
    public func load(name : Text) : Reg = op(#load name);
    public func store(x : Reg, name : Text) : Reg = op(#store { x; name });

    // --- moving data around ---
    public func narrow(x : Reg, d : Nat, start : Nat, len : Nat) : Reg = op(#narrow { x; dim = n32 d; start = n32 start; len = n32 len });
    public func reshape(x : Reg, shape : [Nat]) : Reg = op(#reshape { x; shape = shape.map(n32) });
    public func transpose(x : Reg, a : Nat, b : Nat) : Reg = op(#transpose { x; a = n32 a; b = n32 b });
    public func concat(xs : [Reg], d : Nat) : Reg = op(#concat { xs; dim = n32 d });

    // --- layers ---
    public func embedding(table : Reg, ids : Reg) : Reg = op(#embedding { table; ids });
    public func linear(x : Reg, w : Reg) : Reg = op(#linear { x; w; b = null });
    public func linearBias(x : Reg, w : Reg, b : Reg) : Reg = op(#linear { x; w; b = ?b });
    public func matmul(a : Reg, b : Reg) : Reg = op(#matmul { a; b });
    public func rmsNorm(x : Reg) : Reg = op(#rms_norm x);
    public func layerNorm(x : Reg) : Reg = op(#layer_norm x);
    public func rope(x : Reg) : Reg = op(#rope x);
    public func ropeFrom(x : Reg, start : Nat) : Reg = op(#rope_from { x; start = n32 start });
    public func causalAttention(q : Reg, k : Reg, v : Reg) : Reg = op(#causal_attention { q; k; v });
    public func attention(q : Reg, k : Reg, v : Reg, causal : Bool) : Reg = op(#attention { q; k; v; causal = ?causal });

    // --- elementwise ---
    public func add(a : Reg, b : Reg) : Reg = op(#add { a; b });
    public func mul(a : Reg, b : Reg) : Reg = op(#mul { a; b });
    public func scale(x : Reg, by : Float) : Reg = op(#scale { x; by });
    public func relu(x : Reg) : Reg = op(#relu x);
    public func gelu(x : Reg) : Reg = op(#gelu x);
    public func silu(x : Reg) : Reg = op(#silu x);
    public func softmax(x : Reg) : Reg = op(#softmax x);

    // --- reductions and loss ---
    /// Over dim `d` (removed), or over everything to a scalar when `d` is null.
    public func sum(x : Reg, d : ?Nat) : Reg = op(#sum { x; dim = dim d });
    public func mean(x : Reg, d : ?Nat) : Reg = op(#mean { x; dim = dim d });
    public func crossEntropy(logits : Reg, targets : Reg) : Reg = op(#cross_entropy { logits; targets });
  };
};
