local portolan = require "portolan"

portolan.app {
  id = "root",
  children = { { id = "a" } 
}
