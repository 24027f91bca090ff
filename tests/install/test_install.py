#!/usr/bin/env python3
"""`meson install` into a staging folder (DESTDIR, no root needed), then checks what a user of the installation
gets: the headers and crashtest.pc (compiling a program against them through pkg-config), the schema with its real
$id, the man page, the bash completion, the driver manifest naming the installed library, and a lean library.

Usage: test_install.py BUILD_DIR PREFIX LIBDIR DATADIR INCLUDEDIR MANDIR"""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

BUILD = PREFIX = LIBDIR = DATADIR = INCLUDEDIR = MANDIR = ""
STAGE = ""


def staged(*parts):
    return os.path.join(STAGE + PREFIX, *parts)


class Installation(unittest.TestCase):
    def test_driver_manifest_names_the_installed_library(self):
        manifest = staged(DATADIR, "vulkan", "icd.d", "crashtest_icd.x86_64.json")
        with open(manifest) as f:
            icd = json.load(f)["ICD"]
        self.assertEqual(icd["library_path"], os.path.join(PREFIX, LIBDIR, "libcrashtest_icd.so"))
        self.assertRegex(icd["api_version"], r"^1\.\d+\.\d+$")
        self.assertTrue(os.path.isfile(staged(LIBDIR, "libcrashtest_icd.so")))

    def test_only_the_working_manifest_is_generated_in_the_build_tree(self):
        introspected = json.loads(subprocess.run(["meson", "introspect", "--installed", BUILD], check=True,
                                                 capture_output=True, text=True).stdout)
        for source in introspected:
            self.assertFalse(source.endswith("crashtest_icd.x86_64.json"), source)
        with open(os.path.join(BUILD, "crashtest_icd.json")) as f:
            self.assertTrue(os.path.isfile(json.load(f)["ICD"]["library_path"]))

    def test_headers_and_pkg_config(self):
        for header in ("crashtest.h", "vulkan_compat.h"):
            self.assertTrue(os.path.isfile(staged(INCLUDEDIR, "crashtest", header)), header)
        pc_dirs = glob.glob(staged(LIBDIR, "pkgconfig")) + glob.glob(staged("share", "pkgconfig"))
        self.assertTrue(any(os.path.isfile(os.path.join(d, "crashtest.pc")) for d in pc_dirs), pc_dirs)
        if shutil.which("pkg-config") is None:
            self.skipTest("pkg-config is not installed")
        env = dict(os.environ, PKG_CONFIG_PATH=os.pathsep.join(pc_dirs), PKG_CONFIG_SYSROOT_DIR=STAGE)
        cflags = subprocess.run(["pkg-config", "--cflags", "crashtest"], env=env, check=True, capture_output=True,
                                text=True).stdout.split()
        manifest = subprocess.run(["pkg-config", "--variable=icd_manifest", "crashtest"], env=env, check=True,
                                  capture_output=True, text=True).stdout.strip()
        self.assertTrue(manifest.endswith("/vulkan/icd.d/crashtest_icd.x86_64.json"), manifest)
        with tempfile.TemporaryDirectory() as tmp:
            source = os.path.join(tmp, "uses_crashtest.c")
            with open(source, "w") as f:
                f.write('#include <crashtest/crashtest.h>\n'
                        'int main(void) { return CRASHTEST_INJECT_FAULT_NAME[0] == \'c\' ? 0 : 1; }\n')
            compiler = shutil.which("cc") or shutil.which("gcc")
            if compiler is None:
                self.skipTest("no C compiler")
            subprocess.run([compiler, *cflags, "-c", source, "-o", os.path.join(tmp, "a.o")], check=True)

    def test_schema_has_a_real_id(self):
        path = staged(DATADIR, "crashtest", "schema", "config.schema.json")
        with open(path) as f:
            schema = json.load(f)
        self.assertEqual(schema["$id"], "file://" + os.path.join(PREFIX, DATADIR, "crashtest", "schema",
                                                                "config.schema.json"))
        self.assertNotIn("crashtest.invalid", json.dumps(schema))
        self.assertIn("fault", schema["$defs"])

    def test_man_page_covers_every_subcommand(self):
        page = staged(MANDIR, "man1", "crashtest.1")
        with open(page) as f:
            text = f.read()
        self.assertTrue(text.startswith(".TH CRASHTEST 1"))
        for section in ("RUN", "DEVICES", "CHECK", "STATS"):
            self.assertIn("\n.SH " + section + "\n", text)
        self.assertIn("\\-\\-dump\\-dir", text)
        self.assertIn("CRASHTEST_LOG_FILE", text)
        if shutil.which("man"):
            r = subprocess.run(["man", "-l", "-P", "cat", page], capture_output=True, text=True,
                               env=dict(os.environ, MANWIDTH="100"))
            if r.returncode == 0:
                self.assertIn("--dump-dir DIR", r.stdout.replace("\u2010", "-").replace("\u2212", "-"))

    def test_bash_completion(self):
        candidates = glob.glob(staged("**", "bash-completion", "completions", "crashtest"), recursive=True)
        self.assertEqual(len(candidates), 1, candidates)

        def complete(*words):
            script = ('source "%s"; COMP_WORDS=(%s); COMP_CWORD=%d; _crashtest; printf "%%s\\n" "${COMPREPLY[@]}"' %
                      (candidates[0], " ".join("'%s'" % w for w in words), len(words) - 1))
            return subprocess.run(["bash", "-c", script], check=True, capture_output=True, text=True).stdout.split()

        self.assertEqual(complete("crashtest", "ru"), ["run"])
        self.assertIn("--dump-dir", complete("crashtest", "run", "--"))
        self.assertEqual(complete("crashtest", "run", "--device", "amd"), ["amd-rdna2"])
        self.assertIn("--strict", complete("crashtest", "check", "--s"))

    def test_library_is_lean(self):
        options = json.loads(subprocess.run(["meson", "introspect", "--buildoptions", BUILD], check=True,
                                            capture_output=True, text=True).stdout)
        strip = next(o["value"] for o in options if o["name"] == "strip")
        if not strip:
            self.skipTest("this build was configured with strip=false")
        sections = subprocess.run(["readelf", "-S", "-W", staged(LIBDIR, "libcrashtest_icd.so")], check=True,
                                  capture_output=True, text=True).stdout
        self.assertNotIn(".debug_info", sections)


if __name__ == "__main__":
    if len(sys.argv) != 7:
        sys.exit(__doc__)
    BUILD, PREFIX, LIBDIR, DATADIR, INCLUDEDIR, MANDIR = sys.argv[1:7]
    with tempfile.TemporaryDirectory() as stage:
        STAGE = stage
        subprocess.run(["meson", "install", "-C", BUILD, "--no-rebuild", "--quiet", "--destdir", stage], check=True,
                       stdout=subprocess.DEVNULL)
        result = unittest.main(argv=[sys.argv[0], "-v"], exit=False).result
    sys.exit(0 if result.wasSuccessful() else 1)
