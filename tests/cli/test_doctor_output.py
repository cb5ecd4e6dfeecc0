"""aish doctor on the command-output source."""
from __future__ import annotations


def test_doctor_names_the_output_source_or_how_to_get_one():
    from aish.cli.doctor import check_output

    assert check_output({"TMUX_PANE": "%1"}, "auto").line() == "ok   command output: read from tmux"
    none = check_output({}, "auto")
    assert not none.ok and "aish shell" in none.line() and "tmux" in none.line()
    assert not check_output({"KITTY_WINDOW_ID": "1"}, "auto").ok
    assert check_output({}, "off").ok
    wezterm = check_output({"WEZTERM_PANE": "3"}, "auto")
    assert not wezterm.ok and "aish shell" in wezterm.line()


def test_aish_shell_records_unless_the_terminal_bounds_output_itself():
    from aish.cli.shell_launcher import needs_recorder

    assert needs_recorder({}) and needs_recorder({"WEZTERM_PANE": "3"})
    assert not needs_recorder({"TMUX": "/s,1,0"}) and not needs_recorder({"KITTY_WINDOW_ID": "1"})
