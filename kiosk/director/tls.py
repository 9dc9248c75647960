"""The director's own TLS certificate: made once, kept in the data folder, pinned by kiosks.

Why: on the hall's Wi-Fi anyone can read plain HTTP, so a kiosk's token or a
signed-in phone's cookie could be copied and replayed for hours. No
certificate authority knows a laptop at 192.168.1.5, so the director makes
its own certificate, and the pairing QR code carries the SHA-256 fingerprint
of it: a kiosk that paired by the QR code talks only to a server showing
that very certificate (kiosk/table/pinning.py). The certificate is kept with
the tournament, so a restart keeps the fingerprint and the kiosks stay paired.
"""

from __future__ import annotations

import datetime
import hashlib
import ipaddress
import os
from dataclasses import dataclass
from pathlib import Path

CERT_NAME = "director-cert.pem"
KEY_NAME = "director-key.pem"
#: a pinned certificate needs no renewal by a CA; it lasts past any season
VALID_DAYS = 3650


@dataclass(frozen=True)
class Certificate:
    """Where the certificate and its key are, and the fingerprint kiosks pin."""

    certfile: Path
    keyfile: Path
    fingerprint: str  # SHA-256 of the DER certificate, 64 lower-case hex digits


def fingerprint(pem: bytes) -> str:
    """The SHA-256 fingerprint of a PEM certificate (what the QR code carries)."""
    from cryptography import x509
    from cryptography.hazmat.primitives.serialization import Encoding

    der = x509.load_pem_x509_certificate(pem).public_bytes(Encoding.DER)
    return hashlib.sha256(der).hexdigest()


def ensure_certificate(folder: Path, names: set[str]) -> Certificate:
    """The certificate in `folder`, made now if there is none (`names`: the host names and
    addresses it is for; a pinned certificate is checked by fingerprint, not by name)."""
    certfile, keyfile = folder / CERT_NAME, folder / KEY_NAME
    if not (certfile.is_file() and keyfile.is_file()):
        cert_pem, key_pem = _make(names)
        folder.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(keyfile, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "wb") as out:
            out.write(key_pem)
        certfile.write_bytes(cert_pem)
    return Certificate(certfile, keyfile, fingerprint(certfile.read_bytes()))


def _make(names: set[str]) -> tuple[bytes, bytes]:
    """A new EC P-256 key and a self-signed certificate for `names`: (cert PEM, key PEM)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Euchre director")])
    alternatives: list[x509.GeneralName] = []
    for name in sorted(n for n in names if n):
        try:
            alternatives.append(x509.IPAddress(ipaddress.ip_address(name)))
        except ValueError:
            alternatives.append(x509.DNSName(name))
    now = datetime.datetime.now(datetime.UTC)
    builder = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=VALID_DAYS))
    )
    if alternatives:
        builder = builder.add_extension(x509.SubjectAlternativeName(alternatives), critical=False)
    cert = builder.sign(key, hashes.SHA256())
    key_pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    return cert.public_bytes(serialization.Encoding.PEM), key_pem
