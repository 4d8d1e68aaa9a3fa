"""examples/migration (docs/persistence.md): upgrading tasks_v1 to tasks_v2, whose migration function
turns each old task into the new type, keeps every task and its state; the upgrade without the
migration function is refused and changes nothing."""

import pytest
from kit.actorbuild import EXAMPLES_DIR, build_actor, example_actor
from kit.host import query, update

from moxzi_core import errors
from moxzi_core.candid import NAT, TEXT, Vec
from moxzi_core.runtime.host import ActorSpec, Host


async def show(host):
    [shown] = await query(host, "tasks", "show", rets=[Vec(TEXT)])
    return shown


async def test_the_migration_keeps_the_tasks_in_their_new_type():
    v1 = example_actor("migration/tasks_v1")
    host = Host([ActorSpec("tasks", v1.wasm, v1.did)])
    await host.start()
    try:
        assert await update(host, "tasks", "add", [TEXT], ["write the docs"]) == [1]
        assert await update(host, "tasks", "add", [TEXT], ["test them"]) == [2]
        await update(host, "tasks", "finish", [NAT], [0], rets=())
        assert await show(host) == ["[x] write the docs", "[ ] test them"]

        await host.upgrade("tasks", example_actor("migration/tasks_v2").wasm)
        assert await show(host) == ["[x] write the docs (priority 1)", "[ ] test them (priority 1)"]
        assert await update(host, "tasks", "add", [TEXT, NAT], ["ship", 3]) == [3]
        assert (await show(host))[2] == "[ ] ship (priority 3)"
    finally:
        await host.stop()


async def test_without_the_migration_the_upgrade_is_refused(tmp_path):
    v1 = example_actor("migration/tasks_v1")
    host = Host([ActorSpec("tasks", v1.wasm, v1.did)])
    await host.start()
    try:
        await update(host, "tasks", "add", [TEXT], ["keep me"])
        v2 = (EXAMPLES_DIR / "migration" / "tasks_v2.mo").read_text()
        migration = v2[v2.index("(\n  with migration") : v2.index("persistent actor")]
        (tmp_path / "unmigrated.mo").write_text(v2.replace(migration, ""))
        unmigrated = build_actor("unmigrated", directory=tmp_path)
        with pytest.raises(errors.UpgradeRefused):
            await host.upgrade("tasks", unmigrated.wasm)
        assert await show(host) == ["[ ] keep me"]
    finally:
        await host.stop()
