import ShadeCore
print("shade")
