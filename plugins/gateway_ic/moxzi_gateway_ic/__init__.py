"""The Internet Computer's HTTP interface for moxzid, a plugin like any other (``ic``): it registers an
HTTP app the HTTP gateway mounts at ``/api``, so IC agents (``@icp-sdk/core``, ``@dfinity/agent``),
icp-cli and Python agents call moxzid's actors as they call canisters. The routes are in ``routes``;
requests and their signatures in ``requests`` (canister signatures in ``canister_signatures``);
certificates and moxzid's keys in ``certificates``. The plugin sets ``Host.certifier``, so actors'
queries get data certificates signed with the same root key. Its one setting, ``--ic-max-calls-per-sender``,
bounds the calls each sender has in flight.
"""

from moxzi_core.hookspecs import hookimpl

from .routes import MAX_CALLS_PER_SENDER, build_ic_app


@hookimpl
def register_settings(register):
    register(MAX_CALLS_PER_SENDER)


@hookimpl(optionalhook=True)  # the http plugin's hook (moxzi_gateway_http.hookspecs)
def register_http_apps(register):
    register("/api", build_ic_app)
