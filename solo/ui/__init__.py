"""The only code that prints or prompts. Everything here reads events and questions."""
