"""Package discovery: every package under backend/ is found, never listed by hand.

The shell scripts live at the top level (``shell/``) and ship as the data-only
package ``aish.shell``; pyproject.toml cannot combine a found tree with that
one mapped directory, hence this file.
"""
from setuptools import find_packages, setup

setup(
    packages=find_packages("backend") + ["aish.shell"],
    package_dir={"": "backend", "aish.shell": "shell"},
)
