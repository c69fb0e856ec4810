from a2a_schema_suite.cli import main

if __name__ == "__main__":
    main()
