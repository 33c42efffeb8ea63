import Portolan
import Lua
