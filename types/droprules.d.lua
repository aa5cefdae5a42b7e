---@meta droprules
-- luacheck: ignore
-- The droprules Lua API for lua-language-server, written by `droprules types` from the
-- API description in the droprules library. Do not edit: write it again after an upgrade.
-- Rule files see `droprules`; test files (*_test.lua) see `scenario`, `test` and `expect`
-- instead. The language server cannot tell the two apart; luacheck (`droprules types
-- --luacheck`) can. Both see the sandbox's part of Lua's standard library only.

---What `announce` is asked to say.
---@alias droprules.AnnouncementEvent
---| "lifted"
---| "entered"
---| "proposal"
---| "exited"
---| "dropped"
---| "cancelled"
---| "refused"

---What a rule file returns: target types to rules.
---@alias droprules.RuleFile
---| table<string, droprules.Rule>

---What `dropUpdated` returns.
---@alias droprules.Proposal
---| "move" # the drop would move the items
---| "copy" # the drop would copy the items
---| "forbidden" # a drop here is refused (the pointer shows it)
---| "cancel" # no drop here, as over no target
---| droprules.ProposalTable # `{ operation = ..., index = n }`

---A drag operation.
---@alias droprules.Operation
---| "move" # the items leave where they were
---| "copy" # the originals stay

---How a drag ended (`info.outcome`, `drag:drop()`).
---@alias droprules.Outcome
---| "performed" # the drop was taken
---| "cancelled" # no drop: cancelled, or dropped where the proposal was forbidden or cancel
---| "failed" # performDrop did not return true, or raised
---| "refused" # canDrag let no item go, so the drag never began

---Which third of the item under the pointer (`info.edge`).
---@alias droprules.Edge
---| "before" # the first third along the axis
---| "center" # the middle third: a drop into the item
---| "after" # the last third, up to the next item

---A modifier key.
---@alias droprules.Modifier
---| "option"
---| "command"
---| "shift"
---| "control"

---The drag, as a handler sees it. One object per drag, updated in place between calls; read-only (a write raises an error). After the drag ends it raises `this info belongs to a drag that has ended`.
---@class droprules.Info
---@field kind "info" # What this object is: always `"info"`.
---@field items droprules.Item[] # Every dragged item, in drag order (read-only list).
---@field location droprules.Point # The pointer in the target's own coordinates (its frame's origin is 0, 0).
---@field globalLocation droprules.Point # The pointer in board coordinates.
---@field source? droprules.Target? # The target the first dragged board item came from; nil when no dragged item is on the board.
---@field board droprules.Board # The whole board, to reach targets and items by id.
---@field index? integer? # The insertion gap (1 is before the first item): a step's `index`, else the gap nearest the pointer in a target with an `itemExtent`; in `performDrop`, the index of a `{ operation, index }` proposal comes first. Nil when there is none.
---@field hoverTime? integer? # Milliseconds the pointer has rested on the current target since it was entered (reset on entering another); only `wait` steps pass time. Nil in a handler of any other target.
---@field operation? droprules.Operation? # In `performDrop` and `dragEnded`: the operation performed (nil unless performed).
---@field outcome? droprules.Outcome? # In the last `dropExited` and in `dragEnded`: how the drag ended.
---@field edge? droprules.Edge? # Which third of `info.over` the pointer is in, along the axis.
---@field wouldContainItself boolean # True when a drop here would put a target inside itself: a dragged item stands for this target or an ancestor of it (or of the target the item under the pointer's centre stands for). The host refuses such a move whatever the rule does; forbid it early.
---@field outside? boolean? # True while the pointer is off the board, over another app (`dragOperations`, `dragEnded`).
---@field over? droprules.Item? # In a target with an `itemExtent`: the item under the pointer, nil over empty space.
---@field destination? droprules.Target? # In `dragEnded`: the target that took the drop; nil when another app or nothing took it.
---@field modifiers droprules.Modifiers # The pressed modifier keys as a set: `info.modifiers.option == true`.
---@field allowedOperations droprules.OperationSet # What the drag and its sources allow, as a set: `info.allowedOperations.move == true`.
---@field taken? droprules.Item[]? # In `dragEnded` after a drop into another app: the items the app took (those it accepts).
local droprules_Info = {}

---Whether any dragged item has a representation conforming to one of `types`.
---@param types string|string[] a type identifier or a list of them
---@return boolean
function droprules_Info:hasItemsConforming(types) end

---The dragged items with a representation conforming to one of `types`, in drag order.
---@param types string|string[] a type identifier or a list of them
---@return droprules.Item[] # a new plain list
function droprules_Info:itemProviders(types) end

---A dragged or board item. One object per id (`==` compares identity). Read-only; a kept item reads the board as it is now and raises once its id has left the board.
---@class droprules.Item
---@field kind "item" # What this object is: always `"item"`.
---@field id string # The item's id.
---@field name? string? # Its display name, if it has one.
---@field types string[] # The type identifiers of its representations, best fidelity first (read-only).
---@field container? droprules.Target? # The target that holds it; nil for an external or detached item.
---@field opens? droprules.Target? # The target it stands for (a folder's row, a mailbox, a column): nested in the item's container, and moved with the item, subtree and all. Nil for most items, and for copies.
---@field index? integer? # Its 1-based place in its container's items; nil when it has no container.
---@field data? table<string, any>|fun(self: droprules.Item, type: string): string? # Its own data, a read-only JSON object (scenario key `data` on an item), staged like target data: `item.data.priority`. Called as a method, `item:data(type)` is the payload of its best representation conforming to `type` (nil when none does).
local droprules_Item = {}

---Whether one of its representations conforms to one of `types`.
---@param types string|string[] a type identifier or a list of them
---@return boolean
function droprules_Item:conformsTo(types) end

---Changes one key of `item.data`, staged like `target:set`: committed with the drop, rolled back with it.
---@param key string the data key
---@param value any JSON-like data: nil, boolean, number, string, or a table of them; nil removes the key
function droprules_Item:set(key, value) end

---A detached copy of the item; insert it somewhere with `target:insert`, or it is dropped with the drag.
---@return droprules.Item # the copy, with a fresh id `ID-copyN`
function droprules_Item:copy() end

---A drop target on the board. One object per id. Fields read the staged board (a change is visible at once); the board changes only through the methods.
---@class droprules.Target
---@field kind "target" # What this object is: always `"target"`.
---@field id string # The target's id.
---@field type string # Its target type, the key of its rule (`calendar.day`).
---@field frame droprules.Frame # Where it is, in board coordinates (read-only).
---@field scroll droprules.Point # How far its content is scrolled: the offset of its content's origin, `{ x = 0, y = 0 }` unscrolled.
---@field parent? droprules.Target? # The target it is nested in, if any.
---@field collapsed boolean # Whether it is a closed container: the targets inside it take no drops until a rule spring-loads it.
---@field data table<string, any> # Its free-form data, a read-only view; change it with `target:set`, then read it again.
---@field items droprules.Item[] # The items it holds, in order (read-only list).
local droprules_Target = {}

---Moves board items here, or adds external and copied ones. The gap is counted in the list as it is now; the host does the removal shift, so moving an item next to itself changes nothing. Raises on a NaN or infinite index.
---@param items droprules.Item|droprules.Item[] one item, or a list that goes in together, in order
---@param index? integer the gap to insert at, 1 to #items + 1; nil appends; clamped
function droprules_Target:insert(items, index) end

---Removes an item from this target (it leaves the board).
---@param item droprules.Item an item this target holds
function droprules_Target:remove(item) end

---Changes one key of `target.data`.
---@param key string the data key
---@param value any JSON-like data: nil, boolean, number, string, or a table of them; nil removes the key
function droprules_Target:set(key, value) end

---Changes one key of `target.data` for this drag only: every handler of the drag reads it, and it is gone when the drag ends, performed or not, so hover highlights and placeholders need no cleanup (SwiftUI's `isTargeted`). It is never committed, and a handler that fails has its own calls undone.
---@param key string the data key
---@param value any JSON-like data: nil, boolean, number, string, or a table of them; nil hides the key
function droprules_Target:setForDrag(key, value) end

---The board: every target and item, by id (`info.board`).
---@class droprules.Board
---@field kind "board" # What this object is: always `"board"`.
local droprules_Board = {}

---The target with this id.
---@param id string a target id
---@return droprules.Target? # nil when no such target
function droprules_Board:target(id) end

---The item with this id, on the board or dragged in from outside.
---@param id string an item id
---@return droprules.Item? # nil when no such item
function droprules_Board:item(id) end

---A pointer position (`info.location`, `info.globalLocation`), read-only.
---@class droprules.Point
---@field x number # Horizontal coordinate.
---@field y number # Vertical coordinate.
---@field [1] number # The same as `x`.
---@field [2] number # The same as `y`.
local droprules_Point = {}

---A target's frame (`target.frame`), read-only; whole coordinates are integers.
---@class droprules.Frame
---@field x number # Left edge.
---@field y number # Top edge.
---@field width number # Width.
---@field height number # Height.
---@field [1] number # The same as `x`.
---@field [2] number # The same as `y`.
---@field [3] number # The same as `width`.
---@field [4] number # The same as `height`.
local droprules_Frame = {}

---The pressed modifier keys, a read-only set: a key is `true` when pressed, else absent.
---@class droprules.Modifiers
---@field option? true? # True while option is pressed.
---@field command? true? # True while command is pressed.
---@field shift? true? # True while shift is pressed.
---@field control? true? # True while control is pressed.
local droprules_Modifiers = {}

---Allowed operations, a read-only set: a key is `true` when allowed, else absent.
---@class droprules.OperationSet
---@field copy? true? # True when copy is allowed.
---@field move? true? # True when move is allowed.
local droprules_OperationSet = {}

---The rule for one target type: a table of these keys, all optional. A rule file returns `{ [targetType] = rule, ... }` (`droprules.RuleFile`); `"*"` is the fallback for types no file names. Any other key is a load error.
---@class droprules.Rule
---@field accepts? string|string[] # Types of which a dragged item must carry one for the target to take part (like `onDrop(of:)`).
---@field deletes? boolean? # A drop here may take items off the board for good (a trash): `droprules fuzz` does not call them lost.
---@field duplicates? boolean? # A drop here may leave more items than it brought (a shelf that keeps a copy): `droprules fuzz` does not call them duplicated.
---@field validateDrop? fun(info: droprules.Info, target: droprules.Target): boolean? # Once when the pointer enters: falsy refuses (the parent is tried); nil or no handler accepts.
---@field dropEntered? fun(info: droprules.Info, target: droprules.Target) # After a successful `validateDrop`; may stage board changes (live preview).
---@field dropUpdated? fun(info: droprules.Info, target: droprules.Target): droprules.Proposal? # On entry and on every move or modifier change in the target: the proposal; nil keeps the last one.
---@field dropExited? fun(info: droprules.Info, target: droprules.Target) # When the pointer leaves, and once after the drop or cancel (`info.outcome` set, board read-only).
---@field performDrop? fun(info: droprules.Info, target: droprules.Target): boolean? # On drop: exactly `true` commits the staged changes; anything else (or an error) rolls them back.
---@field canDrag? fun(item: droprules.Item, source: droprules.Target, info: droprules.Info): boolean? # When a drag begins, per dragged item of a target of this type: falsy keeps it in place. `info` (read-only) has the board, the modifiers and every item being gathered.
---@field dragOperations? fun(info: droprules.Info, source: droprules.Target): droprules.Operation[]? # When a drag begins and when it leaves the board: the operations this source allows (nil: both).
---@field dragEnded? fun(info: droprules.Info, source: droprules.Target) # Once per source target at the end of a drag; may change that target (its own transaction).
---@field dragPreview? fun(items: droprules.Item[], source: droprules.Target): droprules.Preview? # Once the items are gathered, of the first source: what the drag shows (default: the first item's name and the count). Read-only.
---@field announce? fun(event: droprules.AnnouncementEvent, info: droprules.Info, target: droprules.Target): string? # What a screen reader says instead of the built-in sentence: `lifted` (of the first source), `entered`, `proposal`, `exited`, `dropped`, `refused`, `cancelled`. Nil keeps the built-in. Read-only.
local droprules_Rule = {}

---The `droprules` global of rule files: types and JSON. Each file gets its own copy.
---@class droprules.Library
droprules = {}

---Declares a custom type. Only at load time (the top level of a rule file); in a handler it raises.
---@param id string the new type identifier
---@param options? { conformsTo: string|string[] } the types it conforms to (default none)
function droprules.declareType(id, options) end

---Whether `type` conforms (transitively) to `other` or to one of a list.
---@param type string a type identifier
---@param other string|string[] a type identifier or a list of them
---@return boolean
function droprules.conforms(type, other) end

---Decodes JSON text, such as an item's payload. On bad text it returns nil and a message; it does not raise.
---@param text string JSON text (RFC 8259, strict)
---@return any value the decoded value (JSON null is nil)
---@return string? message when the text is not JSON: why, with line and column
function droprules.decodeJSON(text) end

---Encodes a value as JSON text, the reverse of `decodeJSON`: integers stay integers and floats floats. A table must be a list 1..n or have string keys only; NaN, infinities, functions and a table that contains itself give nil and a message; it does not raise.
---@param value any nil, a boolean, a finite number, a string, or a table of them
---@return string? text compact JSON, keys sorted; an empty table is `{}`
---@return string? message when the value cannot be JSON: why
function droprules.encodeJSON(value) end

---A proposal with an insertion index, which `performDrop` then sees as `info.index`.
---@class droprules.ProposalTable
---@field operation "move"|"copy"|"forbidden"|"cancel" # The proposal.
---@field index? integer? # The gap to drop at; must be a whole, finite number.
---@field open? boolean? # Spring-loads: the closed container under the pointer (the item's `opens`, else `target.data.opens`, else the target) opens for the rest of the drag. Only from `dropUpdated`.
local droprules_ProposalTable = {}

---What `dragPreview` returns: the drag's preview under the pointer.
---@class droprules.Preview
---@field title string # The main line (200 characters at most are kept).
---@field subtitle? string? # A second line.
---@field badge? string|integer? # A corner badge, such as the count of items.
local droprules_Preview = {}

---A board with its rules loaded, made by `scenario{}`: a rule host of its own.
---@class droprules.Simulation
---@field private id integer # The simulation's number, which its handles use.
---@field errors droprules.Diagnostic[] # The rule errors the test has not taken yet (a new list at each read), oldest first.
local droprules_Simulation = {}

---An item as committed: id, name, data, and where it sits.
---@param id string an item id
---@return droprules.CommittedItem? # a plain copy; nil when the item is gone
function droprules_Simulation:item(id) end

---Takes the rule errors so far: a test that leaves one untaken fails, with the error under it.
---@return droprules.Diagnostic[] # the errors not taken before
function droprules_Simulation:takeErrors() end

---Watches a rule handler from now on: `expect(spy):toHaveBeenCalledTimes(1)`, `spy.calls`.
---@param handler string a handler name, such as `"performDrop"`
---@param options? { target: string?, type: string? } only the calls for one target id, or one type
---@return droprules.Spy
function droprules_Simulation:spy(handler, options) end

---Begins a drag (`canDrag`, `dragOperations`); a drag still in progress on this simulation is cancelled.
---@param items string|(string|droprules.ItemSpec)[] board item ids, or external items as tables
---@param options? { allowedOperations: droprules.Operation[]?, modifiers: droprules.Modifier[]? } default: both operations, or copy only when every item is external; no modifiers
---@return droprules.Drag
function droprules_Simulation:drag(items, options) end

---The committed items of a target.
---@param id string a target id
---@return string[] # item ids, in order
function droprules_Simulation:items(id) end

---A target as committed: id, type, data and item ids.
---@param id string a target id
---@return droprules.CommittedTarget # a plain copy
function droprules_Simulation:target(id) end

---A drag handle from `sim:drag`. It drives its own drag only: once replaced, it raises `this drag is over`.
---@class droprules.Drag
---@field refused string[] # The ids of the items `canDrag` kept in place.
---@field lastStep? table? # The drag's last step as the JSON trace has it: `proposal`, `target`, `index`, `downgrade`, `printed`, `skipped`, `calls`, `outcome`, ...; right after `sim:drag`, the begin step (number 0).
---@field private sim integer # The number of its simulation.
---@field private serial integer # Which drag of its simulation it drives.
local droprules_Drag = {}

---Moves the pointer over a target (only it and its ancestors are considered).
---@param id string a target id: the pointer goes to its centre
---@param options? { index: integer? } an insertion index for the step
---@return "move"|"copy"|"forbidden"|"cancel" # the negotiated proposal
function droprules_Drag:over(id, options) end

---Moves the pointer to a point; the innermost target there is hit.
---@param x number board x
---@param y number board y
---@return "move"|"copy"|"forbidden"|"cancel" # the negotiated proposal
function droprules_Drag:at(x, y) end

---Changes the pressed modifier keys.
---@param list? droprules.Modifier[] the keys now pressed; nil or {} for none
---@return "move"|"copy"|"forbidden"|"cancel" # the negotiated proposal
function droprules_Drag:modifiers(list) end

---Moves the pointer off the board into another app.
---@param spec? { accepts: string|string[]?, operation: droprules.Operation? } what the other app takes (default public.item) and asks for (default copy)
---@return "move"|"copy"|"forbidden"|"cancel" # the negotiated proposal
function droprules_Drag:outside(spec) end

---Lets time pass without moving (a dwell): the current target's `dropUpdated` runs again with `info.hoverTime`.
---@param ms integer milliseconds, 0 to 3600000
---@return "move"|"copy"|"forbidden"|"cancel" # the negotiated proposal
function droprules_Drag:wait(ms) end

---Moves targets after a layout change; the pointer, where it is, is hit-tested again.
---@param frames table<string, number[]> `{ id = { x, y, width, height }, ... }`
---@return "move"|"copy"|"forbidden"|"cancel" # the negotiated proposal
function droprules_Drag:frames(frames) end

---Drops: `performDrop`, the last `dropExited`, `dragEnded`.
---@return droprules.Outcome
function droprules_Drag:drop() end

---Cancels the drag: the staged changes roll back.
---@return droprules.Outcome
function droprules_Drag:cancel() end

---A target as this drag's handlers see it now: staged changes and drag-only data (`target:setForDrag`).
---@param id string a target id
---@return droprules.CommittedTarget # a plain copy
function droprules_Drag:target(id) end

---What `expect(actual)` returns. A failing matcher raises at the test's line with both values.
---@class droprules.Expectation
---@field private actual any # The value under test.
---@field private checked table # Whether a matcher has run.
---@field no droprules.Expectation # The negated expectation: `expect(x).no:toBe(y)` passes when `x` is not `y`.
local droprules_Expectation = {}

---The negated expectation, as `.no`: `expect(x):never():toBe(y)`.
---@return droprules.Expectation
function droprules_Expectation:never() end

---`actual` is a function: passes when calling it raises an error whose message holds `pattern`.
---@param pattern? string plain text, or a Lua pattern, the message must hold
function droprules_Expectation:toRaise(pattern) end

---`actual` is a spy (`sim:spy`): passes when its handler was called since the spy was made.
function droprules_Expectation:toHaveBeenCalled() end

---`actual` is a spy: passes when its handler was called exactly `count` times.
---@param count integer
function droprules_Expectation:toHaveBeenCalledTimes(count) end

---Passes when `actual == expected`.
---@param expected any
function droprules_Expectation:toBe(expected) end

---Passes when the two are equal, tables compared key by key, deeply.
---@param expected any
function droprules_Expectation:toEqual(expected) end

---Passes when `actual` is nil.
function droprules_Expectation:toBeNil() end

---Passes when `actual` is neither nil nor false.
function droprules_Expectation:toBeTruthy() end

---Passes when `actual` is nil or false.
function droprules_Expectation:toBeFalsy() end

---A string: passes when it contains `expected` as plain text. A table: when a value deeply equals `expected`.
---@param expected any
function droprules_Expectation:toContain(expected) end

---A watch on one rule handler of a simulation, from `sim:spy(handler)`.
---@class droprules.Spy
---@field private spy true # Marks a spy for the matchers.
---@field private sim integer # The number of its simulation.
---@field private from integer # Where its calls start in the simulation's log.
---@field handler string # The handler it watches.
---@field target? string? # The target id it is narrowed to.
---@field type? string? # The target type it is narrowed to.
---@field description string # `performDrop of b`, for messages.
---@field calls droprules.SpiedCall[] # The calls so far, oldest first (a new list at each read).
local droprules_Spy = {}

---One call of a spied handler.
---@class droprules.SpiedCall
---@field handler string # The handler called.
---@field target string # The target it ran for.
---@field item? string? # The item `canDrag` was asked about.
---@field step integer # The drag step that made the call.
---@field result any # What it returned, as the JSON trace has it (nil when it raised).
---@field error boolean # Whether it raised.
local droprules_SpiedCall = {}

---A rule error, as `sim.errors` lists them.
---@class droprules.Diagnostic
---@field message string # What went wrong.
---@field file? string? # The rule file.
---@field line? integer? # The line in it.
---@field handler? string? # The handler that raised (`performDrop`).
---@field target? string? # The id of the target it ran for.
---@field step? integer? # The number of the drag step it happened in.
local droprules_Diagnostic = {}

---A plain copy of a committed target (`sim:target(id)`).
---@class droprules.CommittedTarget
---@field id string # Its id.
---@field type string # Its target type.
---@field data table<string, any> # A copy of its data.
---@field items string[] # Its item ids, in order.
---@field parent? string? # The id of the target it is nested in now (a folder moves with its row).
---@field collapsed boolean # Whether it is a closed container.
local droprules_CommittedTarget = {}

---A plain copy of a committed item (`sim:item(id)`).
---@class droprules.CommittedItem
---@field id string # Its id.
---@field name? string? # Its display name.
---@field data table<string, any> # A copy of its own data.
---@field container? string? # The id of the target that holds it; nil when it is on no target.
---@field index? integer? # Its 1-based place in that target's items.
---@field opens? string? # The id of the target it stands for, if any.
local droprules_CommittedItem = {}

---The committed board as plain tables, what `property` checks get: change it as you like, it is a copy.
---@class droprules.BoardSnapshot
---@field targets table<string, { id: string, type: string, items: string[], data: table, parent: string?, collapsed: boolean }> # Each target by id: `board.targets.todo.items` (item ids, in order).
---@field items table<string, { id: string, name: string?, data: table, container: string, index: integer, opens: string? }> # Each item on the board by id: `board.items.standup.container`.
local droprules_BoardSnapshot = {}

---What `scenario{}` takes: a scenario file's schema as a Lua table (lists count from 1 in errors).
---@class droprules.ScenarioSpec
---@field name? string? # A name for messages.
---@field rules? string[]? # Rule files, relative to the test file (default: its name without `_test`).
---@field types? { id: string, conformsTo: string[]? }[]? # Custom types.
---@field board { targets: droprules.TargetSpec[] }|string # The board, or the path of a board file (`"desk.board.json"`) that scenario files share.
---@field drag nil # Refused: a test drives its drags with `sim:drag`.
---@field steps nil # Refused: a test drives its steps with `drag:over`, `drag:at`, ...
---@field expect nil # Refused: a test checks with `expect(...)`.
local droprules_ScenarioSpec = {}

---A target of a scenario's board.
---@class droprules.TargetSpec
---@field id string # Unique id.
---@field type string # Its target type.
---@field frame number[] # `{ x, y, width, height }` in board coordinates.
---@field parent? string? # The id of the target it is nested in.
---@field data? table<string, any>? # Free-form data (a JSON object).
---@field items? droprules.ItemSpec[]? # The items it holds, in order.
---@field itemExtent? number? # The size of one item along the axis: the host computes `info.index`.
---@field axis? "vertical"|"horizontal"? # The axis items are laid out along (default vertical).
---@field collapsed? boolean? # A closed container: the targets inside it take no drops until a rule spring-loads it (default false).
local droprules_TargetSpec = {}

---An item of a scenario's board, or an external item of a drag.
---@class droprules.ItemSpec
---@field id string # Unique id.
---@field name? string? # A display name.
---@field representations? string[][]? # `{ { type, payload }, ... }`, best fidelity first (or `{ type = ..., payload = ... }` tables).
---@field data? table<string, any>? # The item's own data (a JSON object): `item.data` in rules.
---@field opens? string? # The id of the target this board item stands for (a folder's row): that target's parent is the item's container.
local droprules_ItemSpec = {}

---Builds a fresh board with its rules; raises at the test's line when the spec is wrong.
---@param spec droprules.ScenarioSpec the scenario schema as a Lua table
---@return droprules.Simulation
function scenario(spec) end

---Registers a test, at the file's top level or in a `describe`. The file loads once and its tests run in order in that state. A test fails when it raises, when an `expect` in it has no matcher, or when a rule raised an error that it did not take with `sim:takeErrors()`.
---@param name string what the test shows
---@param body fun() the test; it fails when it raises
function test(name, body) end

---`test`, by the name busted gives it.
---@param name string what the test shows, after the names of its describe blocks
---@param body fun() the test
function it(name, body) end

---Groups tests, nested to any depth, as busted does.
---@param name string the group's name, which starts each of its tests' names
---@param body fun() registers the group's tests and hooks; runs at once
function describe(name, body) end

---Runs before every test of the enclosing describe block (or of the file), outer blocks first.
---@param body fun() runs before each test of its describe block
function before_each(body) end

---Runs after every test of the enclosing describe block (or of the file), inner blocks first, also when the test failed.
---@param body fun() runs after each test of its describe block
function after_each(body) end

---Runs once before the first test of the enclosing describe block (or of the file) that runs; when it raises, every test of the block fails with its message.
---@param body fun() runs once, before the first test of its describe block that runs
function setup(body) end

---Runs once after the last test of the enclosing describe block (or of the file) that runs, where its setup did not fail; an error fails that last test.
---@param body fun() runs once, after the last test of its describe block that runs
function teardown(body) end

---`setup`, by busted's other name.
---@param body fun() as setup
function lazy_setup(body) end

---`teardown`, by busted's other name.
---@param body fun() as teardown
function lazy_teardown(body) end

---`setup`, by busted's other name.
---@param body fun() as setup
function strict_setup(body) end

---`teardown`, by busted's other name.
---@param body fun() as teardown
function strict_teardown(body) end

---Inside a test: runs `body` after the test's body, before `after_each`, also when the test failed (the latest first); an error fails the test.
---@param body fun() runs once the test's body is over, whatever it did
function finally(body) end

---`describe`, by busted's other name.
---@param name string as describe
---@param body fun() as describe
function context(name, body) end

---`describe`: every test file already runs in a Lua state of its own, with its own globals and modules.
---@param name string as describe
---@param body fun() as describe
function insulate(name, body) end

---`describe`: the file's globals and modules are shared by its tests, as busted's expose shares them.
---@param name string as describe
---@param body fun() as describe
function expose(name, body) end

---`it`, by busted's other name.
---@param name string as it
---@param body fun() as it
function spec(name, body) end

---Accepted and ignored: `droprules test --shuffle` shuffles.
function randomize() end

---Lists a test as pending: it never runs and never fails the run.
---@param name string the test to write
---@param body? fun() never run
function pending(name, body) end

---Starts an expectation: `expect(drag:drop()):toBe("performed")`.
---@param actual any the value under test
---@return droprules.Expectation
function expect(actual) end

---A property of every board the rules can make: checked after every performed drop of every test in the file, and by `droprules fuzz` after every drop it performs.
---@param name string what must always hold
---@param check? fun(board: droprules.BoardSnapshot): boolean?, string false (and why) or an error when it does not hold
function property(name, check) end
