-- luacheck configuration for droprules rule sets, written by `droprules types --luacheck`
-- from the API description in the droprules library. Do not edit: write it again after
-- an upgrade. Rule files and their modules see the sandbox's part of Lua's standard
-- library and `droprules`; test files (*_test.lua) see it with `scenario`, `test` and
-- `expect` instead.

stds.droprules = {
  globals = {
    _G = { other_fields = true },
  },
  read_globals = {
    _VERSION = {},
    assert = {},
    error = {},
    getmetatable = {},
    ipairs = {},
    pairs = {},
    next = {},
    pcall = {},
    xpcall = {},
    rawequal = {},
    rawget = {},
    rawlen = {},
    rawset = {},
    select = {},
    setmetatable = {},
    tonumber = {},
    tostring = {},
    type = {},
    load = {},
    collectgarbage = {},
    print = {},
    require = {},
    string = { fields = { byte = {}, char = {}, find = {}, format = {}, gmatch = {}, gsub = {}, len = {}, lower = {}, match = {}, pack = {}, packsize = {}, rep = {}, reverse = {}, sub = {}, unpack = {}, upper = {} } },
    table = { fields = { concat = {}, insert = {}, move = {}, pack = {}, remove = {}, sort = {}, unpack = {} } },
    math = { fields = { abs = {}, acos = {}, asin = {}, atan = {}, ceil = {}, cos = {}, deg = {}, exp = {}, floor = {}, fmod = {}, huge = {}, log = {}, max = {}, maxinteger = {}, min = {}, mininteger = {}, modf = {}, pi = {}, rad = {}, random = {}, randomseed = {}, sin = {}, sqrt = {}, tan = {}, tointeger = {}, type = {}, ult = {}, atan2 = {}, cosh = {}, frexp = {}, ldexp = {}, log10 = {}, pow = {}, sinh = {}, tanh = {} } },
    utf8 = { fields = { char = {}, charpattern = {}, codepoint = {}, codes = {}, len = {}, offset = {} } },
    coroutine = { fields = { close = {}, create = {}, isyieldable = {}, resume = {}, running = {}, status = {}, wrap = {}, yield = {} } },
    droprules = { fields = { declareType = {}, conforms = {}, decodeJSON = {}, encodeJSON = {} } },
  },
}

stds.droprules_test = {
  globals = {
    _G = { other_fields = true },
  },
  read_globals = {
    _VERSION = {},
    assert = {},
    error = {},
    getmetatable = {},
    ipairs = {},
    pairs = {},
    next = {},
    pcall = {},
    xpcall = {},
    rawequal = {},
    rawget = {},
    rawlen = {},
    rawset = {},
    select = {},
    setmetatable = {},
    tonumber = {},
    tostring = {},
    type = {},
    load = {},
    collectgarbage = {},
    print = {},
    require = {},
    string = { fields = { byte = {}, char = {}, find = {}, format = {}, gmatch = {}, gsub = {}, len = {}, lower = {}, match = {}, pack = {}, packsize = {}, rep = {}, reverse = {}, sub = {}, unpack = {}, upper = {} } },
    table = { fields = { concat = {}, insert = {}, move = {}, pack = {}, remove = {}, sort = {}, unpack = {} } },
    math = { fields = { abs = {}, acos = {}, asin = {}, atan = {}, ceil = {}, cos = {}, deg = {}, exp = {}, floor = {}, fmod = {}, huge = {}, log = {}, max = {}, maxinteger = {}, min = {}, mininteger = {}, modf = {}, pi = {}, rad = {}, random = {}, randomseed = {}, sin = {}, sqrt = {}, tan = {}, tointeger = {}, type = {}, ult = {}, atan2 = {}, cosh = {}, frexp = {}, ldexp = {}, log10 = {}, pow = {}, sinh = {}, tanh = {} } },
    utf8 = { fields = { char = {}, charpattern = {}, codepoint = {}, codes = {}, len = {}, offset = {} } },
    coroutine = { fields = { close = {}, create = {}, isyieldable = {}, resume = {}, running = {}, status = {}, wrap = {}, yield = {} } },
    scenario = {},
    test = {},
    it = {},
    describe = {},
    before_each = {},
    after_each = {},
    setup = {},
    teardown = {},
    lazy_setup = {},
    lazy_teardown = {},
    pending = {},
    expect = {},
    property = {},
  },
}

std = "droprules"
files["**/*_test.lua"] = { std = "droprules_test" }
