"""pin's plan as constraint lines: `name==version` with why, the index line of a chosen torch CUDA
build (and its companions on the same build), and the names left to the resolver."""

from __future__ import annotations

from packaging.utils import NormalizedName

from compat.model import Environment
from compat.resolve.pin.solver import Pin, PinPlan


def constraint_lines(plan: PinPlan, env: Environment, pytorch_index: str) -> list[str]:
    """The plan as constraint lines (what the constraints file holds, without comments)."""
    index_lines, entries, _ = constraint_entries(plan, env, pytorch_index)
    return [*index_lines, *(requirement for requirement, _ in entries)]


def constraint_entries(
    plan: PinPlan, env: Environment, pytorch_index: str
) -> tuple[list[str], list[tuple[str, str]], list[str]]:
    """Index lines, (requirement, comment) pairs and the names left to the resolver.

    A torch CUDA build the plan chose is written the way pip and uv both read from a
    constraints file: `--extra-index-url <PyTorch's index for that CUDA>` and the local-label
    pin (`torch==2.8.0+cu126`), with torchvision and torchaudio on the same build; a ROCm build
    likewise (`--extra-index-url .../rocm6.1`, `torch==2.4.1+rocm6.1`)."""
    from compat.kb.torchbuilds import cuda_tag, local_label_cuda

    entries: list[tuple[str, str]] = []
    left: list[str] = []
    index_lines: list[str] = []
    torch = next((p for p in plan.pins if p.name == "torch"), None)
    label = ""
    if torch is not None and torch.changed and torch.version.local:
        from compat.kb.torchrocm import label as rocm_label

        cuda = local_label_cuda(str(torch.version.local))
        # a ROCm build (`+rocm6.1`): PyTorch's index of the same name serves it
        label = cuda_tag(cuda) if cuda is not None else rocm_label(torch.version) or ""
        if label:
            index_lines.append(f"--extra-index-url {pytorch_index.rstrip('/')}/{label}")
    for pin in plan.pins:
        if pin.start == "assumed" and not pin.changed and not pin.hardware_guarded:
            # An unpinned requirement nobody resolved: pinning a guess would be a false promise.
            left.append(pin.display_name or pin.name)
            continue
        comment = pin_comment(pin)
        version = str(pin.version.public)
        if label and pin.name == "torch":
            version = f"{version}+{label}"
        elif pin.installed is not None and pin.installed.local and not pin.changed:
            # a `-r` file's `torch==2.4.1+rocm6.1` is the user's pin, not an installed build
            whose = "your pin's build" if pin.start == "pinned" else "installed build"
            comment += f" ({whose} {pin.installed}: choose it with the matching --index-url)"
        # Other local labels are left off: `==2.3.0` matches every build of 2.3.0 on any index.
        if not pin.listed:
            # No release list holds the chosen version: the range of releases like it, never
            # an `==` of a version nobody published (`numpy==1.27`).
            if not pin.range:
                left.append(pin.display_name or pin.name)
                continue
            comment += "; no release list offline: a range of releases, not a release"
            entries.append((f"{pin.display_name or pin.name}{pin.range}", comment))
            continue
        entries.append((f"{pin.display_name or pin.name}=={version}", comment))
    if label:
        pinned = {pin.name: pin for pin in plan.pins}
        for name in ("torchvision", "torchaudio"):
            package = env.packages.get(NormalizedName(name))
            if package is None:
                continue
            companion = pinned.get(package.name)
            base = companion.version if companion is not None else package.version
            requirement = f"{package.display_name or name}=={base.public}+{label}"
            entries = [e for e in entries if not e[0].lower().startswith(f"{name}==")]
            said = (
                pin_comment(companion)
                if companion is not None and companion.changed
                else f"kept {base.public}"
            )
            entries.append((requirement, f"{said}, on torch's {label} build (they must match)"))
    return index_lines, entries, left


def pin_comment(pin: Pin) -> str:
    """Why the line is there, starting with what it does: upgrade, downgrade, kept or resolved."""
    action = pin.action
    if action in ("upgrade", "downgrade", "rebuild"):
        was = pin.installed
        source = {
            "pinned": f"your pin {was}",
            "assumed": f"{was}, the newest release your requirement allows",
            "resolved": f"{was}, the resolver's pick",
        }.get(pin.start, str(was))
        text = f"{action} from {source}"
        if pin.build_change:
            from compat.kb.torchbuilds import build_cuda
            from compat.probes.rocmbuild import rocm_from_local_label

            old, new = build_cuda(pin.installed), build_cuda(pin.version)  # type: ignore[arg-type]
            rocm = rocm_from_local_label(pin.version)
            had = rocm_from_local_label(pin.installed)  # type: ignore[arg-type]
            before = f"ROCm {had}" if had is not None else f"CUDA {old or 'unknown'}"
            after = f"ROCm {rocm}" if rocm is not None else f"CUDA {new or 'CPU'}"
            text += f" ({before} build) to its {after} build"
        if pin.moved_by:
            text += f" via {', '.join(pin.moved_by)}"
        elif pin.companion:
            text += f" with {pin.companion}"
        if pin.moves_user_pin:
            text += f"; moves your pin {pin.display_name or pin.name}=={was}: no escape without it"
    elif action == "resolved":
        text = "resolved" + (f", {pin.companion}" if pin.companion else "")
        if pin.moved_by:
            text += f" via {', '.join(pin.moved_by)}"
    else:
        what = {
            "pinned": "your pin",
            "resolved": "the resolver's pick",
            "assumed": "the newest release your requirement allows; a hardware rule guards it",
        }.get(pin.start, "installed")
        guards = ", ".join(pin.reasons[:3]) + (" …" if len(pin.reasons) > 3 else "")
        text = f"kept ({what})" + (f", guarded by {guards}" if guards else "")
    if pin.floor and action != "kept":
        text += f"; never below {pin.floor}"
    return text
