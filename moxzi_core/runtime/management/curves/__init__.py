"""Elliptic-curve arithmetic the management canister's threshold keys need and ``cryptography`` lacks:
secp256k1 (the IC's derivation, ECDSA, BIP340, BIP341) and Ed25519 (the IC's derivation, signing with
a derived scalar)."""
