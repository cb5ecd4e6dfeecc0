# aish plugin entry point for zsh plugin managers (antidote, zinit, oh-my-zsh custom plugins...):
# loads aish.zsh from the same directory.  Same as `source /path/to/shell/aish.zsh`.
source "${${(%):-%x}:A:h}/aish.zsh"
