-- Spies, stubs, mocks and matchers; what a test puts on an object comes off after it.
local shapes = require "shapes"
local helper = require "spec.helper"
local sameHelper = require "spec/helper"
local spy = require "luassert.spy"
local match = require "luassert.match"

describe("spies", function()
  it("record calls and what they returned", function()
    local double = spy.new(function(x) return x * 2 end)
    double(2)
    double(3)
    assert.spy(double).was.called()
    assert.spy(double).was.called(2)
    assert.spy(double).was.called_with(3)
    assert.spy(double).was_not.called_with(4)
    assert.spy(double).returned_with(6)
    assert.spy(double).was.called_at_least(1)
    assert.spy(double).was.called_at_most(2)
  end)

  it("watch a method and let it run", function()
    local log = spy.new(function() end)
    spy.on(shapes, "area")
    assert.equals("square of 4", shapes.describe(helper.square(2), log))
    assert.spy(shapes.area).was.called_with(2, 2)
    assert.spy(log).was.called_with("square")
    assert.spy(log).was.called_with(match.is_string())
    assert.spy(log).was.called_with(match._)
    assert.spy(log).was_not.called_with(match.is_number())
  end)

  it("are gone after the test that made them", function()
    assert.is_false(spy.is_spy(shapes.area))
    -- Two names, two loads, as Lua's require keys modules by name.
    assert.are.same(helper.square(1), sameHelper.square(1))
  end)

  it("stub a method with answers of their own", function()
    stub(shapes, "area", 99)
    assert.equals("square of 99", shapes.describe(helper.square(2), function() end))
    assert.stub(shapes.area).was.called(1)
  end)

  it("mock a whole table", function()
    local box = mock({ open = function() return "open" end, lid = { close = function() end } })
    assert.equals("open", box.open())
    box.lid.close()
    assert.spy(box.open).was.called(1)
    assert.spy(box.lid.close).was.called(1)
    local quiet = mock({ open = function() return "open" end }, true)
    assert.is_nil(quiet.open())
  end)

  it("says how often it was called when that is wrong", function()
    local s = spy.new(function() end)
    s()
    local ok, message = pcall(function() assert.spy(s).was.called(3) end)
    assert.is_false(ok)
    assert.matches("Expected to be called 3 time(s), but was called 1 time(s)", message, 1, true)
  end)
end)
