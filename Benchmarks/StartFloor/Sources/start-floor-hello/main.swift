// A Swift process that starts, prints and exits: the runtime's own floor.
print("hello")
