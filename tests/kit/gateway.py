"""The http plugin's gateway in the test process, serving a ``Host`` on a free port."""

import contextlib
import json

import aiohttp

from moxzi_core import plugins
from moxzi_core.settings import Address, Settings
from moxzi_gateway_http import HttpGateway

LIMIT = 512 * 1024  # request bodies: above the test actors' wasm (~300 KB), so upgrades fit


@contextlib.asynccontextmanager
async def serving(host, http_apps=None, **settings):
    """(gateway, an aiohttp session whose base URL is it): the gateway serving ``host`` on a free port,
    with ``settings`` (the core's, the http and ic plugins') and the ``http_apps`` it mounts, and the
    redirects moxzi's plugins register into those apps (``/`` to the console's page)."""
    registry, _ = plugins.load(["http", "ic", "console"])
    apps = http_apps or {}
    redirects = {
        path: target
        for path, target in registry.added["register_http_redirects"].items()
        if any(target.startswith(prefix + "/") for prefix in apps)
    }
    values = {"listen": Address("127.0.0.1", 0), "max_message_bytes": LIMIT, **settings}
    gateway = HttpGateway(host, Settings(registry.settings, values), apps, redirects)
    await gateway.start()
    try:
        async with aiohttp.ClientSession(f"http://{gateway.address}") as session:
            yield gateway, session
    finally:
        await gateway.stop()


async def post(session, path, body):
    """(status, decoded JSON or text) of a POST; a list or dict body is sent as JSON."""
    data = json.dumps(body) if isinstance(body, (list, dict)) else body
    async with session.post(path, data=data) as response:
        text = await response.text()
        is_json = response.content_type == "application/json"
        return response.status, json.loads(text) if is_json else text
