"""Maps the top-level folders apps/, tasks/, agents/, variations/ and experiments/ into the one
import name ``openapps_sim`` (``openapps_sim.apps`` and so on), for wheel and editable installs."""

from pathlib import Path

from setuptools import setup

MAPPED = {
    "apps": "apps",
    "tasks": "tasks",
    "agents": "agents",
    "variations": "variations",
    "experiments": "experiments",
}


def packages_under(root: str, import_prefix: str) -> list[str]:
    """The package ``root`` and every folder below it: its sub-packages and its folders of data
    files (a pack's or a task family's YAML, with no ``__init__.py``), listed so that setuptools
    ships them as the package data they are rather than warning that they "would be ignored"."""
    if not (Path(root) / "__init__.py").exists():
        return []
    found = [import_prefix]
    for folder in sorted(p for p in Path(root).rglob("*") if p.is_dir()):
        rel = folder.relative_to(root).parts
        if "__pycache__" not in rel and not any(part.startswith(".") for part in rel):
            found.append(".".join((import_prefix,) + rel))
    return found


package_dir = {"openapps_sim": "openapps_sim"}
packages = packages_under("openapps_sim", "openapps_sim")
for name, folder in MAPPED.items():
    package_dir[f"openapps_sim.{name}"] = folder
    packages += packages_under(folder, f"openapps_sim.{name}")
# sub-packages of mapped folders must be mapped explicitly too
for pkg in list(packages):
    parts = pkg.split(".")
    if len(parts) > 2 and parts[1] in MAPPED:
        package_dir[pkg] = "/".join([MAPPED[parts[1]]] + parts[2:])

setup(package_dir=package_dir, packages=packages)
