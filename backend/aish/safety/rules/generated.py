"""Build outputs and caches wherever they stand: what a build, an install or a program made and makes again.

``rm -rf src/app/__pycache__``, ``rm -rf packages/*/node_modules``, ``rm -rf ~/projects/app/target/``,
``rm -rf ~/Library/Caches/com.example.app``, ``rm -rf ~/.npm/_cacache``: the next build, install or run puts
them back, so deleting them loses nothing of value.  The relative forms at the top of a project were known
(``rm -rf build dist``); deeper, under the home or behind a glob they were judged as the user's own files.

A path is generated when one of its directories has a name only tools give (``node_modules``, ``__pycache__``,
``.pytest_cache``, ``.tox``, ``.next``, ``DerivedData``, ``.terraform``, ``*.egg-info``, a cache: ``.cache``,
``caches``, ``Caches``, ``_cacache``, Chromium's and Electron apps' ``Cache``/``GPUCache``/``Code Cache``;
``cache`` in any case inside a tool's hidden directory or ``~/Library``, ``~/.cargo/registry/cache``,
``~/.config/Code/Cache``, not a bare one, which a project's own source may be named; Maven's
``~/.m2/repository``), a package manager's lock file (``package-lock.json``, ``Cargo.lock``: the install
writes it again), or when it ends in a build directory's name said to be a directory (``build/``,
``dist/*``, ``target/``, ``_build/``, ``coverage/``…) below some other directory (``~/build/`` alone may be a
workspace: it keeps its reading; ``path/to/target`` may be a file).
Everything below such a directory is generated too.  Keys' directories, system paths, histories and shell
start-up files are not (the latter are classified before this is asked); an absolute path outside the home
keeps its reading (``/srv/cache`` may be a server's data).
"""
from __future__ import annotations

# Directory names only tools give: the directory and everything in it are made again by the tool.
MADE_BY_TOOLS = frozenset("""
node_modules __pycache__ .pytest_cache .mypy_cache .ruff_cache .tox .nox .next .nuxt .parcel-cache .turbo
.svelte-kit .angular DerivedData .terraform .sass-cache .docusaurus .expo .eggs .cache caches Caches _cacache
.hypothesis .pytype .dart_tool .stack-work .cabal-sandbox .bloop .metals elm-stuff bower_components jspm_packages
CachedData GPUCache Cache_Data ShaderCache GrShaderCache DawnCache .thumbnails
""".split()) | {"Code Cache", "iOS DeviceSupport", "watchOS DeviceSupport", "tvOS DeviceSupport",
                "visionOS DeviceSupport"}  # (Chromium's and Electron apps' caches; Xcode's symbols of each device's OS)
# Build directories' names: generated when they end a path below another directory.
BUILD_DIRS = frozenset("""
build dist target _build builddir cmake-build-debug cmake-build-release coverage htmlcov storybook-static
""".split())

# Package managers' lock files: the install that follows writes them again (`rm -rf node_modules package-lock.json
# && npm install`); what they pinned is in the repository's history.
LOCK_FILES = frozenset("""
package-lock.json yarn.lock pnpm-lock.yaml bun.lockb bun.lock Cargo.lock poetry.lock Pipfile.lock pdm.lock uv.lock
Gemfile.lock composer.lock mix.lock pubspec.lock Podfile.lock go.sum flake.lock packages.lock.json gradle.lockfile
Package.resolved conan.lock
""".split())


# Directories of keys and credentials: a `cache` inside one is no build output.
_KEPT = frozenset({".ssh", ".gnupg", ".aws", ".kube", ".docker", ".password-store", ".electrum", ".bitcoin",
                   ".ethereum", ".azure", ".gcloud"})


def generated(path: str) -> bool:
    """Is ``path`` (normalised: ``~/…``, relative or absolute) a build output or a cache, or inside one?"""
    if "/" not in path.rstrip("/"):
        return False  # one name: the project's top-level outputs are `OUTPUT_DIRS`' to know (`rm -rf build`)
    parts = [p for p in path.rstrip("/").split("/") if p not in ("", ".")]
    if parts and parts[-1] in ("*", ".*", "**"):
        parts = parts[:-1]  # `build/*`: what is in it
    if not parts or ".." in parts or _KEPT.intersection(parts):
        return False
    if parts[-1] in LOCK_FILES:
        return True  # `~/proj/yarn.lock`, `packages/web/package-lock.json`
    if any(p in MADE_BY_TOOLS or p.endswith(".egg-info") for p in parts):
        return True
    lowered = [p.lower() for p in parts]
    if "cache" in lowered and any(p.startswith(".") or p == "Library" for p in parts[:lowered.index("cache")]):
        return True  # a tool's own cache under its hidden directory: `~/.cargo/registry/cache`, `~/.config/Code/Cache`
    if ".m2" in parts and "repository" in parts:
        return True  # Maven's downloaded artifacts: the next build fetches them again
    below = parts[1:] if parts[0] == "~" else parts
    # `app/build/`, `packages/*/dist/*`: said to be a directory (a file may be named `target`); not `~/build/`
    return len(below) > 1 and below[-1] in BUILD_DIRS and path.endswith(("/", "/*"))
