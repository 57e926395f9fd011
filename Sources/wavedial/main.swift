print("wavedial")
