#!/usr/bin/env python3
"""Tests of json/embed_profiles.py: what it writes, and that bad profiles fail the build with a clear message.

Usage: test_embed_profiles.py PATH/TO/embed_profiles.py
"""

import os
import subprocess
import sys
import tempfile
import unittest

EMBED = None
GOOD = '{"profiles": {"VP_x": {"description": "a test device"}}, "capabilities": {}}'


class EmbedProfilesTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.devices = os.path.join(self.dir.name, "devices")
        os.mkdir(self.devices)
        self.output = os.path.join(self.dir.name, "out.cpp")

    def tearDown(self):
        self.dir.cleanup()

    def write(self, name, text):
        path = os.path.join(self.devices, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def run_embed(self, *paths, devices_dir=True):
        args = [sys.executable, EMBED, "--output", self.output]
        if devices_dir:
            args += ["--devices-dir", self.devices]
        return subprocess.run(args + list(paths), capture_output=True, text=True)

    def output_text(self):
        with open(self.output, encoding="utf-8") as f:
            return f.read()

    def test_entries_are_sorted_by_name_with_description(self):
        b = self.write("zeta.json", GOOD)
        a = self.write("alpha.json", GOOD.replace("a test device", "the first device"))
        result = self.run_embed(b, a)
        self.assertEqual(result.returncode, 0, result.stderr)
        text = self.output_text()
        self.assertLess(text.index('"alpha"sv'), text.index('"zeta"sv'))
        self.assertIn('the first device', text)
        self.assertIn("BuiltinProfiles()", text)

    def test_invalid_json_names_file_and_position(self):
        path = self.write("broken.json", '{"profiles": {\n  "VP_x": {"description": "d",}}}')
        result = self.run_embed(path)
        self.assertEqual(result.returncode, 1)
        self.assertIn("broken.json:2:", result.stderr)
        self.assertIn("not valid JSON", result.stderr)
        self.assertFalse(os.path.exists(self.output))

    def test_missing_description_is_an_error(self):
        path = self.write("nodesc.json", '{"profiles": {"VP_x": {"label": "no description"}}}')
        result = self.run_embed(path)
        self.assertEqual(result.returncode, 1)
        self.assertIn("nodesc.json: $.profiles.VP_x: expected a non-empty string \"description\"", result.stderr)

    def test_missing_profiles_section_is_an_error(self):
        path = self.write("noprofiles.json", '{"capabilities": {}}')
        result = self.run_embed(path)
        self.assertEqual(result.returncode, 1)
        self.assertIn("noprofiles.json: expected a non-empty object \"profiles\"", result.stderr)

    def test_closing_sequence_in_text_changes_delimiter(self):
        # A JSON string ending in ")ct" puts the default closing sequence )ct" into the text.
        path = self.write("tricky.json", GOOD.replace("a test device", "ends with )ct"))
        result = self.run_embed(path)
        self.assertEqual(result.returncode, 0, result.stderr)
        text = self.output_text()
        self.assertNotIn('R"ct(', text)
        self.assertIn('R"ct1(', text)
        self.assertIn('ends with )ct"', text)

    def test_file_not_listed_is_an_error(self):
        listed = self.write("listed.json", GOOD)
        self.write("forgotten.json", GOOD)
        result = self.run_embed(listed)
        self.assertEqual(result.returncode, 1)
        self.assertIn("forgotten.json is not listed in json/meson.build", result.stderr)

    def test_bad_profile_name_is_an_error(self):
        path = self.write("has space.json", GOOD)
        result = self.run_embed(path, devices_dir=False)
        self.assertEqual(result.returncode, 1)
        self.assertIn("may only contain", result.stderr)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print("usage: test_embed_profiles.py PATH/TO/embed_profiles.py", file=sys.stderr)
        sys.exit(2)
    EMBED = sys.argv.pop(1)
    unittest.main()
