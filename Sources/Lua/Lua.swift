import CLua
