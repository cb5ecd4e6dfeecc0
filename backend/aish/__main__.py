from aish.entry import main

main()
