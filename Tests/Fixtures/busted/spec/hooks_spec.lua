-- busted's blocks and hooks, in the order busted runs them.
local counter = require "counter"
local order = {}

describe("hooks", function()
  setup(function() order[#order + 1] = "setup" end)
  lazy_setup(function() order[#order + 1] = "lazy_setup" end)
  before_each(function() order[#order + 1] = "before_each" end)
  after_each(function() order[#order + 1] = "after_each" end)
  teardown(function() order[#order + 1] = "teardown" end)

  it("runs setup once, then before_each", function()
    assert.same({ "setup", "lazy_setup", "before_each" }, order)
    finally(function() order[#order + 1] = "finally" end)
  end)

  it("runs finally before after_each", function()
    assert.same({ "setup", "lazy_setup", "before_each", "finally", "after_each", "before_each" }, order)
  end)

  context("context, insulate and expose group tests as describe does", function()
    insulate("insulated", function()
      spec("a spec is an it", function() assert.equals(1, counter.bump()) end)
    end)
    expose("exposed", function()
      it("shares the file's modules", function() assert.equals(2, counter.bump()) end)
    end)
  end)

  describe("require 'busted'", function()
    local busted = require "busted"
    busted.it("gives the blocks, hooks and assert a spec sees", function()
      assert.equals(it, busted.it)
      assert.equals(assert, busted.assert)
      assert.is_function(busted.before_each)
    end)
  end)
end)
