"""Read the proto side of ``drift``: a ``.proto`` file compiled with grpcio-tools' bundled protoc,
or a serialized ``FileDescriptorSet`` (``protoc --descriptor_set_out``, ``buf build -o``).

Both give a list of ``FileDescriptorProto``. protobuf and grpcio-tools are the optional
``[proto]`` extra: a missing one is a clear error naming the extra, never an ImportError.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from google.protobuf.descriptor_pb2 import FileDescriptorProto


class ProtoInputError(Exception):
    """The proto input cannot be read: the message names the file and the reason."""


@dataclass(frozen=True)
class ProtoFiles:
    """The descriptors of one input: ``files`` in dependency order, ``main`` the ones asked about
    (the ``.proto`` given, or every file of a descriptor set that is not a google/* import)."""

    files: tuple[FileDescriptorProto, ...]
    main: tuple[str, ...]
    source: Path


_EXTRA = (
    "install the [proto] extra's packages: "
    "pip install 'protobuf>=5.26' 'googleapis-common-protos>=1.60' 'grpcio-tools>=1.60'"
)


def _descriptor_pb2() -> ModuleType:
    try:
        # field_behavior's extension must be known before options are parsed, so REQUIRED is read.
        from google.api import field_behavior_pb2  # noqa: F401
        from google.protobuf import descriptor_pb2
    except ImportError as exc:
        raise ProtoInputError(f"cannot read protos: {exc.name or exc} is not installed ({_EXTRA})") from None
    return descriptor_pb2


def _include_dirs() -> list[str]:
    """protoc's include path: grpcio-tools' well-known types and googleapis-common-protos' google/api."""
    dirs: list[str] = []
    try:
        import grpc_tools

        dirs.append(str(Path(grpc_tools.__file__).parent / "_proto"))
    except ImportError:
        raise ProtoInputError(f"cannot compile a .proto: grpcio-tools is not installed ({_EXTRA})") from None
    try:
        import google.api

        for entry in google.api.__path__:
            dirs.append(str(Path(entry).parent.parent))
    except ImportError:
        pass
    return dirs


def compile_proto(path: Path, include: tuple[Path, ...] = ()) -> bytes:
    """The serialized FileDescriptorSet of ``path`` and its imports, with source info (lines)."""
    try:
        from grpc_tools import protoc
    except ImportError:
        raise ProtoInputError(f"cannot compile a .proto: grpcio-tools is not installed ({_EXTRA})") from None
    with tempfile.TemporaryDirectory(prefix="a2a-drift-") as tmp:
        out = Path(tmp) / "set.pb"
        args = ["protoc", f"-I{path.parent.resolve()}"]
        args += [f"-I{p.resolve()}" for p in include]
        args += [f"-I{d}" for d in _include_dirs()]
        args += ["--include_imports", "--include_source_info", f"--descriptor_set_out={out}", path.name]
        # protoc writes its diagnostics to the process's stderr (file descriptor 2), in
        # "file:line:column: message" form; capture them to put them in our one error line.
        code, text = _run_capturing_stderr(lambda: protoc.main(args))
        if code != 0 or not out.exists():
            detail = "; ".join(line.strip() for line in text.splitlines() if line.strip()) or f"exit {code}"
            raise ProtoInputError(f"protoc could not compile {path}: {detail}")
        return out.read_bytes()


def _run_capturing_stderr(call: Callable[[], object]) -> tuple[int, str]:
    """Run ``call`` with file descriptor 2 redirected to a temporary file; its code and that text."""
    import os
    import sys

    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as capture:
        os.dup2(capture.fileno(), 2)
        try:
            code = int(call())  # type: ignore[call-overload]
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        capture.seek(0)
        return code, capture.read().decode("utf-8", "replace")


def unavailable(path: Path | None) -> str | None:
    """Why the ``[proto]`` extra cannot read ``path`` here (a ``.proto`` needs grpcio-tools'
    protoc; a descriptor set, or the SDK's compiled descriptor with ``path`` None, only protobuf
    and googleapis-common-protos), or None: it can. Only imports, never reads the file."""
    try:
        _descriptor_pb2()
        if path is not None and path.suffix == ".proto":
            _include_dirs()
    except ProtoInputError as exc:
        return str(exc)
    return None


def load(path: Path, include: tuple[Path, ...] = ()) -> ProtoFiles:
    """The descriptors of ``path``: a ``.proto`` (compiled) or a serialized FileDescriptorSet."""
    descriptor_pb2 = _descriptor_pb2()
    if not path.exists():
        raise ProtoInputError(f"{path}: no such file")
    if path.is_dir():
        raise ProtoInputError(f"{path}: is a directory; give a .proto file or a FileDescriptorSet")
    if path.suffix == ".proto":
        data = compile_proto(path, include)
    else:
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise ProtoInputError(f"{path}: cannot read it: {exc.strerror or exc}") from None
    fds = descriptor_pb2.FileDescriptorSet()
    try:
        fds.ParseFromString(data)
    except Exception as exc:  # google.protobuf.message.DecodeError and kin
        raise ProtoInputError(
            f"{path}: not a serialized FileDescriptorSet ({type(exc).__name__}: {exc}); "
            "give a .proto file or the output of protoc --descriptor_set_out"
        ) from None
    files = tuple(fds.file)
    if not files or not all(f.name for f in files):
        raise ProtoInputError(f"{path}: not a FileDescriptorSet: it holds no named proto file")
    if path.suffix == ".proto":
        main = tuple(f.name for f in files if f.name == path.name)
    else:
        main = tuple(f.name for f in files if not f.name.startswith("google/"))
    if not main:
        raise ProtoInputError(f"{path}: the descriptor set holds only google/* files, no protocol to compare")
    return ProtoFiles(files, main, path)


def sdk_descriptor_set() -> bytes:
    """The FileDescriptorSet of the 1.0 proto compiled inside the ``a2a-sdk`` package (with its
    imports), serialized: what the tests and docs feed ``drift --proto``."""
    descriptor_pb2 = _descriptor_pb2()
    try:
        from a2a.types import a2a_pb2
    except ImportError:
        raise ProtoInputError("a2a-sdk is not installed (pip install a2a-sdk)") from None
    fds = descriptor_pb2.FileDescriptorSet()
    seen: set[str] = set()

    def add(descriptor: Any) -> None:  # a google.protobuf.descriptor.FileDescriptor
        if descriptor.name in seen:
            return
        seen.add(descriptor.name)
        for dependency in descriptor.dependencies:
            add(dependency)
        proto = fds.file.add()
        descriptor.CopyToProto(proto)

    add(a2a_pb2.DESCRIPTOR)
    return bytes(fds.SerializeToString())


@dataclass(frozen=True)
class SdkProto:
    """The proto compiled inside the installed ``a2a-sdk``: its package, the protocol version the
    SDK speaks (``a2a.utils.constants.PROTOCOL_VERSION_CURRENT``) and its own version."""

    package: str
    protocol_version: str
    sdk_version: str

    @property
    def label(self) -> str:
        return f"the installed a2a-sdk {self.sdk_version}'s {self.package}, protocol {self.protocol_version}"


def installed_sdk() -> SdkProto | None:
    """What the installed ``a2a-sdk`` compiles, or None when it (or protobuf) is not installed."""
    try:
        from importlib.metadata import version

        from a2a.types import a2a_pb2
        from a2a.utils import constants
    except ImportError:
        return None
    try:
        sdk_version = version("a2a-sdk")
    except Exception:  # PackageNotFoundError: importable but not installed as a distribution
        sdk_version = "(unknown version)"
    current = getattr(constants, "PROTOCOL_VERSION_CURRENT", None)
    if not isinstance(current, str):
        return None
    return SdkProto(a2a_pb2.DESCRIPTOR.package, current, sdk_version)


def load_sdk() -> ProtoFiles:
    """The installed ``a2a-sdk``'s compiled proto, as :func:`load` gives a file's."""
    descriptor_pb2 = _descriptor_pb2()
    fds = descriptor_pb2.FileDescriptorSet()
    fds.ParseFromString(sdk_descriptor_set())
    files = tuple(fds.file)
    main = tuple(f.name for f in files if not f.name.startswith("google/"))
    return ProtoFiles(files, main, Path("a2a-sdk:a2a.types.a2a_pb2"))
