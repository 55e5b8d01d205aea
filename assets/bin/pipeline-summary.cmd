@echo off
set ELECTRON_RUN_AS_NODE=1
"%~dp0..\..\Pipeline Summary.exe" "%~dp0..\cli\pipeline-summary.js" %*
