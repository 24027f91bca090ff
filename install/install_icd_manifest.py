#!/usr/bin/env python3
"""Writes the installed driver manifest at `meson install` time (meson.add_install_script), so that the build tree
holds only the manifest that works there (build/crashtest_icd.json). The installed one names the library by its
installed absolute path, as distribution manifests do; DESTDIR staging is honoured.

Usage: install_icd_manifest.py MANIFEST_TEMPLATE MANIFEST_DIR MANIFEST_NAME LIBRARY_PATH API_VERSION
(MANIFEST_DIR and LIBRARY_PATH absolute, under the final prefix)."""
import os
import sys


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    template, manifest_dir, name, library, api_version = sys.argv[1:]
    with open(template, encoding="utf-8") as f:
        text = f.read().replace("@LIBRARY_PATH@", library).replace("@API_VERSION@", api_version)
    destdir = os.environ.get("DESTDIR", "")
    target_dir = destdir + manifest_dir if destdir else manifest_dir
    os.makedirs(target_dir, exist_ok=True)
    target = os.path.join(target_dir, name)
    with open(target, "w", encoding="utf-8") as f:
        f.write(text)
    if not os.environ.get("MESON_INSTALL_QUIET"):
        print("Installing driver manifest to " + target)


if __name__ == "__main__":
    main()
