print("droprules")
