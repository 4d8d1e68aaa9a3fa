// A test actor for HTTPS outcalls (tests/test_outcalls.py): the management canister's http_request
// with a transform that drops the headers (and puts its context before the body), one that traps, or
// none; and a long message to hold the actor busy while an outcall's answer waits in its inbox.
import Error "mo:core/Error";
import Nat "mo:core/Nat";
import Runtime "mo:core/Runtime";
import Text "mo:core/Text";

persistent actor Outcaller {
  type Header = { name : Text; value : Text };
  type Result = { status : Nat; headers : [Header]; body : Blob };
  type TransformArgs = { response : Result; context : Blob };
  type Method = { #get; #head; #post };
  type Args = {
    url : Text;
    max_response_bytes : ?Nat64;
    method : Method;
    headers : [Header];
    body : ?Blob;
    transform : ?{ function : shared query TransformArgs -> async Result; context : Blob };
    is_replicated : ?Bool;
  };
  transient let ic = actor "aaaaa-aa" : actor { http_request : Args -> async Result };

  var last : Text = "";

  func text(blob : Blob) : Text {
    switch (Text.decodeUtf8(blob)) { case (?t) t; case null "<not utf-8>" };
  };

  public query func strip(args : TransformArgs) : async Result {
    { status = args.response.status; headers = []; body = Text.encodeUtf8(text(args.context) # text(args.response.body)) };
  };

  public query func boom(_ : TransformArgs) : async Result {
    Runtime.trap("the transform trapped");
  };

  // "STATUS HEADERS BODY" of the response (through the transform named: "strip", "boom" or none),
  // or "reject CODE: MESSAGE"; kept as `last` as well.
  public func fetch(url : Text, method : Method, body : ?Blob, limit : ?Nat64, transform : Text, cycles : Nat) : async Text {
    let chosen = switch transform {
      case "strip" ?{ function = strip; context = Text.encodeUtf8("ctx:") };
      case "boom" ?{ function = boom; context = Text.encodeUtf8("") };
      case _ null;
    };
    let args = {
      url;
      max_response_bytes = limit;
      method;
      headers = [{ name = "x-test"; value = "moxzi" }];
      body;
      transform = chosen;
      is_replicated = null;
    };
    last := try {
      let response = await (with cycles = cycles) ic.http_request(args);
      Nat.toText(response.status) # " " # Nat.toText(response.headers.size()) # " " # text(response.body);
    } catch (e) {
      "reject " # debug_show (Error.code(e)) # ": " # Error.message(e);
    };
    last;
  };

  public query func lastResult() : async Text { last };

  // Counts to n: a message long enough to keep the actor busy.
  public func spin(n : Nat) : async Nat {
    var i = 0;
    while (i < n) { i += 1 };
    i;
  };
};
