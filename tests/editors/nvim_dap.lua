-- nvim_dap.lua: Neovim 0.7 (Debian 12) with a real nvim-dap 0.6 checkout, driven headless through
-- nvim-dap's own API, with the README's stdio configuration (nvim_dap.sh runs the ```lua block under
-- the README's "#### Neovim 0.7 with nvim-dap 0.6" heading as the init file, then this script).
-- Environment: GLR_CONFIG (the configuration's name), GLR_INPUT (the capture or the pid it asks
-- for), GLR_SHADER, GLR_LINE, GLR_NEXT_LINE, GLR_HIT, GLR_VAR, GLR_VALUE (empty: any number).
local function fail(msg)
  io.stderr:write('nvim_dap: FAIL: ' .. msg .. '\n')
  vim.cmd('cquit 1')
end
local function env(k) return os.getenv(k) or fail(k .. ' is not set') end
local ok, err = pcall(function()
  -- The README's block ran as the init file (nvim -u). Its configurations ask for the capture or
  -- the pid with vim.fn.input: answer as a user would.
  local answer = env('GLR_INPUT')
  vim.fn.input = function() return answer end

  local dap = require('dap')
  local line, next_line = tonumber(env('GLR_LINE')), tonumber(env('GLR_NEXT_LINE'))
  vim.cmd('edit ' .. vim.fn.fnameescape(env('GLR_SHADER')))
  if vim.bo.filetype ~= 'glsl' then fail('the shader file has filetype ' .. vim.inspect(vim.bo.filetype) .. ', not glsl') end
  vim.api.nvim_win_set_cursor(0, { line, 0 })
  dap.set_breakpoint(nil, env('GLR_HIT'), nil)   -- a hit condition, as `:lua require('dap').set_breakpoint(nil, '10')`
  local config
  for _, c in ipairs(dap.configurations.glsl or {}) do if c.name == env('GLR_CONFIG') then config = c end end
  if not config then fail("README's block has no configuration " .. env('GLR_CONFIG')) end
  dap.run(config)                             -- what dap.continue() runs once the user picked it
  local function wait(what, pred, ms)
    if not vim.wait(ms or 60000, pred, 20) then fail('timed out waiting for ' .. what) end
  end
  wait('a stop with a current frame', function() local se = dap.session(); return se and se.current_frame ~= nil end)
  local se = dap.session()
  local f = se.current_frame
  if f.line ~= line then fail(('stopped on line %d, breakpoint on line %d'):format(f.line, line)) end
  if vim.fn.resolve(f.source.path) ~= vim.fn.resolve(env('GLR_SHADER')) then fail('frame source ' .. tostring(f.source.path)) end
  if vim.api.nvim_win_get_cursor(0)[1] ~= line then fail('nvim-dap did not jump to the stopped line') end
  local value
  local want = env('GLR_VALUE')
  se:request('scopes', { frameId = f.id }, function(e1, scopes)
    if e1 then fail('scopes: ' .. vim.inspect(e1)) end
    for _, sc in ipairs(scopes.scopes) do
      if sc.name == 'Locals' then
        se:request('variables', { variablesReference = sc.variablesReference }, function(e2, vars)
          if e2 then fail('variables: ' .. vim.inspect(e2)) end
          value = false
          for _, v in ipairs(vars.variables) do if v.name == env('GLR_VAR') then value = v.value end end
        end)
      end
    end
  end)
  wait('the Locals', function() return value ~= nil end, 20000)
  local ok_value = want == '' and type(value) == 'string' and value:match('^%-?[%d.]+$') or value == want
  if not ok_value then fail(('%s = %s, expected %s'):format(env('GLR_VAR'), tostring(value), want == '' and 'a number' or want)) end
  dap.step_over()
  wait('the stop after step_over', function() return se.current_frame ~= nil and se.current_frame ~= f end)
  if se.current_frame.line ~= next_line then fail(('step_over went to line %d, expected %d'):format(se.current_frame.line, next_line)) end
  dap.disconnect()
  wait('the session to end', function() return dap.session() == nil end, 20000)
  io.stdout:write(('nvim_dap: Neovim %s, nvim-dap %s, %s: stopped at hit %s of %s:%d, %s = %s, step_over to line %d, session ended\n')
    :format(tostring(vim.version().major .. '.' .. vim.version().minor .. '.' .. vim.version().patch), os.getenv('GLR_NVIM_DAP_VERSION') or '?',
            env('GLR_CONFIG'), env('GLR_HIT'), vim.fn.fnamemodify(env('GLR_SHADER'), ':t'), line, env('GLR_VAR'), value, next_line))
end)
if not ok then fail(tostring(err)) end
vim.cmd('qall!')
