// What an app that imports DropRules sees: the drag model and engine, and the Lua
// runtime's limits and errors, besides the rule host itself.
@_exported import DropRulesLua
@_exported import DropRulesModel
