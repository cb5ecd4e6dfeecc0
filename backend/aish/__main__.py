from aish.cli import main

main()
