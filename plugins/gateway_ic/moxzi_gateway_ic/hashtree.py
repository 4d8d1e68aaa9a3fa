"""The IC's hash trees (interface spec, "Certification"): building them from nested dicts, their root
hash (``reconstruct``), and looking a path up in one a client sent.

A tree is CBOR-shaped: ``[0]`` empty, ``[1, left, right]`` fork, ``[2, label, subtree]`` labeled,
``[3, value]`` leaf, ``[4, hash]`` pruned.
"""

from __future__ import annotations

import hashlib


class MalformedTree(ValueError):
    """The value is not a hash tree, or not a well-formed one; the message says where."""


def build_tree(labeled: dict) -> list:
    """The hash tree of nested dicts (byte labels, leaves bytes); labels are sorted as the spec requires."""
    nodes = [
        [2, label, [3, value] if isinstance(value, bytes) else build_tree(value)]
        for label, value in sorted(labeled.items())
    ]
    if not nodes:
        return [0]
    while len(nodes) > 1:  # pair neighbours level by level: a balanced tree, order kept
        nodes = [[1, nodes[i], nodes[i + 1]] if i + 1 < len(nodes) else nodes[i] for i in range(0, len(nodes), 2)]
    return nodes[0]


def tree_hash(tree: list) -> bytes:
    """The root hash of a tree (the spec's ``reconstruct``); MalformedTree if it is not a tree."""
    _check_node(tree)
    kind = tree[0]
    if kind == 0:
        return _domain_hash(b"ic-hashtree-empty")
    if kind == 1:
        return _domain_hash(b"ic-hashtree-fork", tree_hash(tree[1]), tree_hash(tree[2]))
    if kind == 2:
        return _domain_hash(b"ic-hashtree-labeled", tree[1], tree_hash(tree[2]))
    if kind == 3:
        return _domain_hash(b"ic-hashtree-leaf", tree[1])
    return tree[1]  # 4: pruned


def lookup(tree: list, path: list[bytes]) -> bytes | None:
    """The leaf at ``path`` in a well-formed tree (the spec's ``Found v``), or None (absent, pruned,
    or not a leaf). MalformedTree if the tree on the way is not well formed: labels strictly
    increasing, not mixed with leaves, as the spec's lookup assumes."""
    for label in path:
        children = _flatten(tree)
        labels = [child[1] for child in children if child[0] == 2]
        if any(child[0] == 3 for child in children) or labels != sorted(set(labels)):
            raise MalformedTree("labels must be strictly increasing and not mixed with leaves")
        found = [child[2] for child in children if child[0] == 2 and child[1] == label]
        if not found:
            return None
        tree = found[0]
    _check_node(tree)
    return tree[1] if tree[0] == 3 else None


def _flatten(tree: list) -> list[list]:
    _check_node(tree)
    if tree[0] == 1:
        return _flatten(tree[1]) + _flatten(tree[2])
    return [] if tree[0] == 0 else [tree]


def _check_node(tree) -> None:
    shapes = {0: (), 1: (list, list), 2: (bytes, list), 3: (bytes,), 4: (bytes,)}
    if not isinstance(tree, list) or not tree or tree[0] not in shapes:
        raise MalformedTree(f"not a hash tree node: {tree!r:.60}")
    wanted = shapes[tree[0]]
    if len(tree) != 1 + len(wanted) or not all(isinstance(part, kind) for part, kind in zip(tree[1:], wanted)):
        raise MalformedTree(f"a hash tree node of kind {tree[0]} must hold {[k.__name__ for k in wanted]}")
    if tree[0] == 4 and len(tree[1]) != 32:
        raise MalformedTree("a pruned node holds a 32-byte hash")


def _domain_hash(domain: bytes, *parts: bytes) -> bytes:
    return hashlib.sha256(bytes([len(domain)]) + domain + b"".join(parts)).digest()
