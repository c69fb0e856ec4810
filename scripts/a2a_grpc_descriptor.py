"""Write the A2A 1.0 gRPC descriptor set the probe's gRPC binding uses (``probe --binding grpc``).

The probe speaks gRPC with ``grpcio`` and messages built at run time from a protobuf
``FileDescriptorSet`` (``src/a2a_schema_suite/probe/a2a_v1.binpb``): ``a2a.proto`` (package
``lf.a2a.v1``) with every file it imports, plus ``google/rpc/status.proto`` and
``google/rpc/error_details.proto`` for the error details. No generated code is committed and
a2a-sdk is never imported at run time: this script takes the descriptors from an installed
a2a-sdk (a test dependency) once, and ``tests/test_probe_grpc.py`` checks that the committed file
still equals what the installed SDK compiles in.

Usage: python scripts/a2a_grpc_descriptor.py [OUTPUT]   (default: the committed path)
"""

from __future__ import annotations

import sys
from pathlib import Path

DEFAULT = Path(__file__).resolve().parent.parent / "src" / "a2a_schema_suite" / "probe" / "a2a_v1.binpb"


def descriptor_set() -> bytes:
    from a2a.types import a2a_pb2
    from google.protobuf import descriptor_pb2
    from google.rpc import error_details_pb2, status_pb2

    ordered: list[descriptor_pb2.FileDescriptorProto] = []
    seen: set[str] = set()

    def add(file) -> None:
        if file.name in seen:
            return
        for dependency in file.dependencies:
            add(dependency)
        seen.add(file.name)
        proto = descriptor_pb2.FileDescriptorProto()
        file.CopyToProto(proto)
        ordered.append(proto)

    for module in (a2a_pb2, status_pb2, error_details_pb2):
        add(module.DESCRIPTOR)
    return descriptor_pb2.FileDescriptorSet(file=ordered).SerializeToString(deterministic=True)


def main(argv: list[str]) -> int:
    target = Path(argv[0]) if argv else DEFAULT
    target.write_bytes(descriptor_set())
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
