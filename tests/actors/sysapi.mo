// A test actor for the System API calls beyond the basics: where each may be called from (the IC's
// table), certified data, replicated execution, deadlines, the canister version, environment variables.
import CertifiedData "mo:core/CertifiedData";
import IC "mo:core/InternetComputer";
import Prim "mo:prim";

persistent actor Self {
  public func certify(data : Blob) : async () { CertifiedData.set(data) };

  // certified_data_set is not available in a query: this traps, as on the IC.
  public query func certifyInQuery(data : Blob) : async () { CertifiedData.set(data) };

  // No data certificate: moxzid does not certify.
  public query func certificate() : async ?Blob { CertifiedData.getCertificate() };

  public func replicatedInUpdate() : async Bool { IC.isReplicated() };

  public query func replicatedInQuery() : async Bool { IC.isReplicated() };

  public func deadline() : async ?Nat { IC.replyDeadline() };

  // The deadline a bounded-wait call (timeout 5 s) gives the callee, and the time it was made.
  public func boundedDeadline() : async (?Nat, Nat64) {
    let sent = Prim.time();
    (await (with timeout = 5) Self.deadline(), sent)
  };

  public query func version() : async Nat64 { Prim.canisterVersion() };

  public func touch() : async () {};
};
