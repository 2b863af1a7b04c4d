from solo.cli import main

main()
