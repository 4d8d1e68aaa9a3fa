"""moxzid's web console, a plugin like any other: HTTP apps the HTTP gateway (the ``http`` plugin) mounts.

Open http://ADDRESS/ (the gateway's ``--listen``; it leads to ``/console/``) in a browser: the actors with their memory, cycles,
messages and traps; a form per method, built from its Candid interface, that calls it and shows the
reply; the live log; what each actor holds on the device; and live loss curves per actor and optimizer.
The page and its charting library (uPlot, MIT, ``static/uPlot.LICENSE``) ship in this package: nothing
is fetched from elsewhere and nothing is built at run time. The same process serves the live event
stream (``GET /events``, Server-Sent Events) and ``GET /metrics`` (Prometheus); ``routes.py`` lists
every route.
"""

from moxzi_core.hookspecs import hookimpl

from .routes import console_app, events_app, favicon_app, metrics_app


@hookimpl(optionalhook=True)  # the http plugin's hook (moxzi_gateway_http.hookspecs)
def register_http_apps(register):
    register("/console", console_app)
    register("/events", events_app)
    register("/metrics", metrics_app)
    register("/favicon.ico", favicon_app)


@hookimpl(optionalhook=True)
def register_http_redirects(register):
    register("/", "/console/")  # a person opening the gateway's address in a browser gets the console
