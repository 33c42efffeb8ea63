print("portolan")
